-- innolint example: keys and foreign keys, one table per problem beside tables that are fine.
-- Run: innolint check examples/keys.sql   (add --target mariadb-10.11 or mysql-8.4 for their advice)

CREATE DATABASE IF NOT EXISTS billing DEFAULT CHARACTER SET utf8mb4;
USE billing;

-- Fine: a narrow key, every index useful.
CREATE TABLE customer (
  id INT UNSIGNED NOT NULL AUTO_INCREMENT,
  email VARCHAR(255) NOT NULL,
  country CHAR(2) NOT NULL,
  PRIMARY KEY (id),
  UNIQUE KEY email (email),
  KEY country (country)
) ENGINE=InnoDB AUTO_INCREMENT=48210;

-- redundant-index: idx_customer is a left prefix of number_per_customer (and of
-- idx_customer_placed), which also serve the foreign key; idx_id repeats the primary key.
-- UNIQUE number_per_customer itself is never flagged: it enforces something.
-- foreign-key-mismatch (error): customer_id is a signed INT, customer.id is INT UNSIGNED: the
-- servers refuse the foreign key (a dump that creates this table first loads it, and every insert
-- then fails).
-- auto-increment-capacity (warning): AUTO_INCREMENT=1300000000 is 61% of a signed INT; UNSIGNED
-- doubles the headroom in the same 4 bytes.
CREATE TABLE invoice (
  id INT NOT NULL AUTO_INCREMENT,
  customer_id INT NOT NULL,
  number INT NOT NULL,
  placed DATE NOT NULL,
  PRIMARY KEY (id),
  UNIQUE KEY number_per_customer (customer_id, number),
  KEY idx_customer (customer_id),
  KEY idx_customer_placed (customer_id, placed),
  KEY idx_id (id),
  CONSTRAINT fk_invoice_customer FOREIGN KEY (customer_id) REFERENCES customer (id)
) ENGINE=InnoDB AUTO_INCREMENT=1300000000;

-- wide-primary-key (warning): clustered on a 255-character utf8mb4 code (up to 1,022 bytes),
-- which each of its two secondary indexes copies into every entry.
CREATE TABLE coupon (
  code VARCHAR(255) NOT NULL,
  discount_pct TINYINT UNSIGNED NOT NULL,
  valid_until DATE,
  customer_id INT UNSIGNED,
  PRIMARY KEY (code),
  KEY valid_until (valid_until),
  KEY customer_id (customer_id)
) ENGINE=InnoDB;

-- Fine for wide-primary-key (no finding): a link table keeps the composite key it is read by
-- (link-table-primary-key would ask for it; a surrogate would scatter one customer's rows).
CREATE TABLE customer_coupon (
  customer_id INT UNSIGNED NOT NULL,
  coupon_code VARCHAR(255) NOT NULL,
  PRIMARY KEY (customer_id, coupon_code),
  KEY coupon_code (coupon_code),
  CONSTRAINT fk_cc_customer FOREIGN KEY (customer_id) REFERENCES customer (id),
  CONSTRAINT fk_cc_coupon FOREIGN KEY (coupon_code) REFERENCES coupon (code)
) ENGINE=InnoDB;

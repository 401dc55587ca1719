-- innolint example schema: one table per problem innolint finds, beside tables that are fine.
-- Run: innolint check examples/

CREATE DATABASE IF NOT EXISTS shop;
USE shop;

-- Fine: an auto-increment primary key.
CREATE TABLE customer (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
  email VARCHAR(255) NOT NULL,
  created_at DATETIME NOT NULL,
  PRIMARY KEY (id),
  UNIQUE KEY email (email)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

-- no-primary-key: no key at all, so InnoDB clusters on the hidden DB_ROW_ID.
CREATE TABLE page_view (
  customer_id BIGINT UNSIGNED NOT NULL,
  url VARCHAR(2048) NOT NULL,
  viewed_at DATETIME NOT NULL,
  KEY customer_id (customer_id)
) ENGINE=InnoDB;

-- no-primary-key (info): clustered on a NOT NULL UNIQUE key, but no explicit PRIMARY KEY.
CREATE TABLE coupon (
  code CHAR(12) NOT NULL,
  discount_pct TINYINT UNSIGNED NOT NULL,
  UNIQUE KEY code (code)
) ENGINE=InnoDB;

-- no-primary-key at the ALTER that dropped the key.
CREATE TABLE cart_item (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  cart_id BIGINT UNSIGNED NOT NULL,
  sku VARCHAR(64) NOT NULL
) ENGINE=InnoDB;
ALTER TABLE cart_item DROP PRIMARY KEY, ADD KEY (id);

-- non-innodb-engine: a MyISAM table among InnoDB ones (no transactions, table locks, no crash
-- recovery). no-primary-key leaves it alone: MyISAM has no clustered index.
CREATE TABLE legacy_counter (
  name VARCHAR(64) NOT NULL,
  value BIGINT NOT NULL
) ENGINE=MyISAM;

-- uuid-primary-key (error): random UUIDs as text on a table the comment below marks insert-heavy.
-- Even UUID() (version 1) values sort randomly as text: they start with time_low.
-- innolint: insert-heavy
CREATE TABLE order_event (
  id CHAR(36) NOT NULL DEFAULT (UUID()),
  order_id BIGINT UNSIGNED NOT NULL,
  created_at DATETIME NOT NULL,
  payload JSON,
  PRIMARY KEY (id)
) ENGINE=InnoDB;

-- uuid-primary-key (warning): UUID_TO_BIN without the swap flag stores random bytes; the *_log name
-- suggests an insert-heavy table.
CREATE TABLE api_request_log (
  id BINARY(16) NOT NULL DEFAULT (UUID_TO_BIN(UUID())),
  path VARCHAR(255) NOT NULL,
  requested_at DATETIME NOT NULL,
  PRIMARY KEY (id)
) ENGINE=InnoDB;

-- Fine: UUID_TO_BIN(UUID(), 1) swaps the timestamp's high part to the front, so new rows append.
CREATE TABLE shipment (
  id BINARY(16) NOT NULL DEFAULT (UUID_TO_BIN(UUID(), 1)),
  order_id BIGINT UNSIGNED NOT NULL,
  created_at DATETIME NOT NULL,
  PRIMARY KEY (id)
) ENGINE=InnoDB;

-- link-table-primary-key: a many-to-many table clustered on a surrogate id scatters one customer's
-- tags across the B-tree; the fix clusters it on (customer_id, tag_id) and keeps KEY (id).
CREATE TABLE tag (
  id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  name VARCHAR(64) NOT NULL,
  UNIQUE KEY name (name)
) ENGINE=InnoDB;
CREATE TABLE customer_tag (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  customer_id BIGINT UNSIGNED NOT NULL,
  tag_id INT UNSIGNED NOT NULL,
  created_at DATETIME NOT NULL,
  UNIQUE KEY customer_tag (customer_id, tag_id),
  FOREIGN KEY (customer_id) REFERENCES customer (id),
  FOREIGN KEY (tag_id) REFERENCES tag (id)
) ENGINE=InnoDB;

-- Fine: a link table clustered on the pair, with the reverse lookup indexed.
CREATE TABLE category (
  id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  name VARCHAR(64) NOT NULL
) ENGINE=InnoDB;
CREATE TABLE coupon_category (
  coupon_code CHAR(12) NOT NULL,
  category_id INT UNSIGNED NOT NULL,
  PRIMARY KEY (coupon_code, category_id),
  KEY category_id (category_id),
  FOREIGN KEY (category_id) REFERENCES category (id)
) ENGINE=InnoDB;

-- compression-candidate (info; a warning when a stats file shows it above 1 GiB): a JSON document
-- column and a LONGTEXT, neither compressed. The fix follows --target: Percona Server compresses
-- the columns with a dictionary, MariaDB with column COMPRESSED, MySQL with COMPRESSION='zlib'
-- (sparse files) or ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=8.
CREATE TABLE product_snapshot (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  sku VARCHAR(64) NOT NULL,
  attributes JSON NOT NULL,
  description LONGTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci,
  taken_at DATETIME NOT NULL
) ENGINE=InnoDB;

-- Not compression candidates: a table compressed already, and an image column (its content is
-- compressed already: JPEG, PNG).
CREATE TABLE product_snapshot_archive (
  id BIGINT UNSIGNED NOT NULL PRIMARY KEY,
  attributes JSON NOT NULL
) ENGINE=InnoDB COMPRESSION='zlib';
CREATE TABLE product_image (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  sku VARCHAR(64) NOT NULL,
  image MEDIUMBLOB NOT NULL
) ENGINE=InnoDB;

-- DDL the server refuses or silently changes.
-- row-size-limit: COMPACT keeps 768 bytes of each long VARCHAR in the row (11 x 790 bytes, over
-- InnoDB's 8,126); MariaDB and recent MySQL refuse the CREATE, older MySQL fails the INSERTs.
CREATE TABLE survey_answer (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  q1 VARCHAR(255), q2 VARCHAR(255), q3 VARCHAR(255), q4 VARCHAR(255), q5 VARCHAR(255), q6 VARCHAR(255),
  q7 VARCHAR(255), q8 VARCHAR(255), q9 VARCHAR(255), q10 VARCHAR(255), q11 VARCHAR(255)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 ROW_FORMAT=COMPACT;

-- index-key-length: 1,000 utf8mb4 characters are 4,000 bytes, over InnoDB's 3,072: MySQL refuses
-- the key, MariaDB silently makes it KEY (url(768)).
CREATE TABLE landing_page (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  url VARCHAR(1000) NOT NULL,
  KEY url (url)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

-- zero-date-default: MySQL 5.7+'s default sql_mode (NO_ZERO_DATE, strict) refuses the zero date;
-- MariaDB takes it.
CREATE TABLE invoice (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  paid_on DATE NOT NULL DEFAULT '0000-00-00'
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

-- charset-portability: utf8 is utf8mb3, 3 bytes a character: an emoji in a review fails to insert.
CREATE TABLE review (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  body TEXT NOT NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8;

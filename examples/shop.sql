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

-- Not flagged: MyISAM tables have no clustered index.
CREATE TABLE legacy_counter (
  name VARCHAR(64) NOT NULL,
  value BIGINT NOT NULL
) ENGINE=MyISAM;

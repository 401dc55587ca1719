-- innolint example: a schema-per-tenant server, as `mysqldump --databases` prints it.
-- Run: innolint check examples/tenants.sql   (and --target mariadb-10.11 to see the MariaDB advice)
--
-- Four tenant schemas with the same three tables. innolint recognises the layout (three or more
-- schemas whose table sets are the same or nearly so, or tenant_schema_pattern in the config).
--
-- tenant-tablespace (warning): acme, globex and initech keep every table in its own .ibd file
-- (no TABLESPACE clause): one finding per table definition, not one per copy, with the files the
-- layout implies and the fix (a general tablespace per tenant, shown for one, generated for all).
-- umbrella does it right: its tables are in its own general tablespace `umbrella`.
--
-- cross-tenant-tablespace (error): umbrella.invoice sits in tablespace `globex`, named after
-- another tenant: umbrella's invoices would travel with globex's file.

--
-- Current Database: `acme`
--

CREATE DATABASE /*!32312 IF NOT EXISTS*/ `acme` /*!40100 DEFAULT CHARACTER SET utf8mb4 */;

USE `acme`;

CREATE TABLE `customer` (
  `id` bigint unsigned NOT NULL AUTO_INCREMENT,
  `email` varchar(255) NOT NULL,
  `created_at` datetime NOT NULL,
  PRIMARY KEY (`id`),
  UNIQUE KEY `email` (`email`)
) ENGINE=InnoDB AUTO_INCREMENT=37 DEFAULT CHARSET=utf8mb4;

CREATE TABLE `invoice` (
  `id` bigint unsigned NOT NULL AUTO_INCREMENT,
  `customer_id` bigint unsigned NOT NULL,
  `total_cents` bigint NOT NULL,
  `issued_at` datetime NOT NULL,
  PRIMARY KEY (`id`),
  KEY `customer_id` (`customer_id`)
) ENGINE=InnoDB AUTO_INCREMENT=211 DEFAULT CHARSET=utf8mb4;

CREATE TABLE `invoice_line` (
  `invoice_id` bigint unsigned NOT NULL,
  `line_no` smallint unsigned NOT NULL,
  `sku` varchar(64) NOT NULL,
  `amount_cents` bigint NOT NULL,
  PRIMARY KEY (`invoice_id`,`line_no`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

--
-- Current Database: `globex`
--

CREATE DATABASE /*!32312 IF NOT EXISTS*/ `globex` /*!40100 DEFAULT CHARACTER SET utf8mb4 */;

USE `globex`;

CREATE TABLE `customer` (
  `id` bigint unsigned NOT NULL AUTO_INCREMENT,
  `email` varchar(255) NOT NULL,
  `created_at` datetime NOT NULL,
  PRIMARY KEY (`id`),
  UNIQUE KEY `email` (`email`)
) ENGINE=InnoDB AUTO_INCREMENT=74 DEFAULT CHARSET=utf8mb4;

CREATE TABLE `invoice` (
  `id` bigint unsigned NOT NULL AUTO_INCREMENT,
  `customer_id` bigint unsigned NOT NULL,
  `total_cents` bigint NOT NULL,
  `issued_at` datetime NOT NULL,
  PRIMARY KEY (`id`),
  KEY `customer_id` (`customer_id`)
) ENGINE=InnoDB AUTO_INCREMENT=422 DEFAULT CHARSET=utf8mb4;

CREATE TABLE `invoice_line` (
  `invoice_id` bigint unsigned NOT NULL,
  `line_no` smallint unsigned NOT NULL,
  `sku` varchar(64) NOT NULL,
  `amount_cents` bigint NOT NULL,
  PRIMARY KEY (`invoice_id`,`line_no`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

--
-- Current Database: `initech`
--

CREATE DATABASE /*!32312 IF NOT EXISTS*/ `initech` /*!40100 DEFAULT CHARACTER SET utf8mb4 */;

USE `initech`;

CREATE TABLE `customer` (
  `id` bigint unsigned NOT NULL AUTO_INCREMENT,
  `email` varchar(255) NOT NULL,
  `created_at` datetime NOT NULL,
  PRIMARY KEY (`id`),
  UNIQUE KEY `email` (`email`)
) ENGINE=InnoDB AUTO_INCREMENT=111 DEFAULT CHARSET=utf8mb4;

CREATE TABLE `invoice` (
  `id` bigint unsigned NOT NULL AUTO_INCREMENT,
  `customer_id` bigint unsigned NOT NULL,
  `total_cents` bigint NOT NULL,
  `issued_at` datetime NOT NULL,
  PRIMARY KEY (`id`),
  KEY `customer_id` (`customer_id`)
) ENGINE=InnoDB AUTO_INCREMENT=633 DEFAULT CHARSET=utf8mb4;

CREATE TABLE `invoice_line` (
  `invoice_id` bigint unsigned NOT NULL,
  `line_no` smallint unsigned NOT NULL,
  `sku` varchar(64) NOT NULL,
  `amount_cents` bigint NOT NULL,
  PRIMARY KEY (`invoice_id`,`line_no`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

--
-- Current Database: `umbrella`
--

CREATE DATABASE /*!32312 IF NOT EXISTS*/ `umbrella` /*!40100 DEFAULT CHARACTER SET utf8mb4 */;

USE `umbrella`;

CREATE TABLE `customer` (
  `id` bigint unsigned NOT NULL AUTO_INCREMENT,
  `email` varchar(255) NOT NULL,
  `created_at` datetime NOT NULL,
  PRIMARY KEY (`id`),
  UNIQUE KEY `email` (`email`)
) /*!50100 TABLESPACE `umbrella` */ ENGINE=InnoDB AUTO_INCREMENT=148 DEFAULT CHARSET=utf8mb4;

CREATE TABLE `invoice` (
  `id` bigint unsigned NOT NULL AUTO_INCREMENT,
  `customer_id` bigint unsigned NOT NULL,
  `total_cents` bigint NOT NULL,
  `issued_at` datetime NOT NULL,
  PRIMARY KEY (`id`),
  KEY `customer_id` (`customer_id`)
) /*!50100 TABLESPACE `globex` */ ENGINE=InnoDB AUTO_INCREMENT=844 DEFAULT CHARSET=utf8mb4;

CREATE TABLE `invoice_line` (
  `invoice_id` bigint unsigned NOT NULL,
  `line_no` smallint unsigned NOT NULL,
  `sku` varchar(64) NOT NULL,
  `amount_cents` bigint NOT NULL,
  PRIMARY KEY (`invoice_id`,`line_no`)
) /*!50100 TABLESPACE `umbrella` */ ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

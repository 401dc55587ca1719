"""Schema: the model (tables, columns, keys, tablespaces, each with its place) and the InnoDB
facts several checks need (`model`, `innodb_sizes`), replay of operations into it (`replay`), the
target server (`target`), tenant layouts (`tenants`) and workload statistics (`stats`)."""

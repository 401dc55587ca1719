"""Migration formats: which tool a directory of migrations belongs to and in which order it runs
them (`history`), the changelog formats with their own reading (Atlas, Liquibase, Prisma), and the
evidence applications give about their tables (`orm_evidence`)."""

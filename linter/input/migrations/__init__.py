"""Migration histories: which files form one history and in which order they run (`history`,
asking the formats: `formats`, one module per tool), a new migration in a history's format
(`writing`), and the evidence applications give about their tables (`orm_evidence`)."""

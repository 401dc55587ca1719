"""The parts of the splitter (`linter.input.split`): the tokens of SQL text (`sqltext`), where a
compound statement ends (`compound`), how sql_mode changes quoting (`sqlmode`)."""

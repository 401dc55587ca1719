"""Configuration: resolving `.innolint.toml` / pyproject settings per file (`settings`), the
pydantic model of a configuration file (`model`, imported only when a file is read), and the
linear-time regex engine user patterns run on (`user_regex`)."""

"""Input: finding files (directory walks, .gitignore, symlinks kept inside the tree), reading
them in bounded chunks, splitting them into statements with their places (`split`, its parts in
`splitter/`), and the migration formats that decide order and sections (`migrations/`).
No sqlglot here: the stage ends with `Statement`s."""

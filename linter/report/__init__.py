"""Reporters: each turns a Report into one output format. They see findings and nothing else."""

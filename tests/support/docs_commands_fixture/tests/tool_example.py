# A stand-in for a test file of the fixture of tests/support/docs_commands_check.cmake (never
# run): the comment names the command of docs/complete.md it would run.

# docs: python3 tool.py --port 9600 (here a free port)

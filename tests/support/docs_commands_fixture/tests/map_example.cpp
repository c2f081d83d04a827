// A stand-in for a test file of the fixture of tests/support/docs_commands_check.cmake (never
// compiled): the comments name the commands of docs/complete.md the "test" runs.
//
// docs: retarget map wave.csv --robot nao --method ga-lvvj
//       -o wave_nao.csv
// docs: retarget report wave.csv --robot nao --method ga-lvvj -o wave.html (a wave made here)

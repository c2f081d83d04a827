#pragma once
// Fixture of tests/support/citation_check.cmake (not compiled): a file with three citations.
// The shoulder angles (seed 000, Eqs. 4–6) and the knee (Eq. 23);
// the window cosine of seed 003 Section 6.

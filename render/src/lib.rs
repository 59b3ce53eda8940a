//! Board pictures (PNG) from game states. Filled in by the board-pictures issue.

//! The tests of `tabula-ai`, in one binary: the computer's moves for every game through the public
//! API, and endings it must calculate exactly.

mod computer;
mod endings;

//! The skill domain: typed requests in, decisions out. No HTTP types and no SQL here;
//! surfaces call these functions and the store applies what they decide.
//!
//! - [`versions`]: which version becomes `latest`.

pub mod versions;

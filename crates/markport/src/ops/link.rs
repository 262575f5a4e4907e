//! The key two links share when they are the same link: the model's, which
//! `diff` pairs bookmarks by too.

pub use markport_model::link_key;

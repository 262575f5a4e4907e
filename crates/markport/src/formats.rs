//! The macro behind the one list of formats in `lib.rs`: from each entry —
//! a Cargo feature, the format crate it builds, the name the crate is
//! re-exported under, the formats it declares and a line of documentation —
//! it makes the re-export and its `cfg`, the registry's [`FORMATS`] in the
//! list's order, and [`FEATURES`], so none of them is written twice.
//!
//! [`FORMATS`]: crate::FORMATS
//! [`FEATURES`]: crate::FEATURES

/// See the module documentation.
macro_rules! formats {
    (@reexports) => {};
    (@reexports $feature:literal => $krate:ident as $alias:ident [$($def:path),+ $(,)?] $doc:literal; $($rest:tt)*) => {
        #[cfg(feature = $feature)]
        #[doc = $doc]
        pub use $krate as $alias;
        formats!(@reexports $($rest)*);
    };
    (@reexports always [$($def:path),+ $(,)?]; $($rest:tt)*) => {
        formats!(@reexports $($rest)*);
    };

    (@list [$($out:tt)*]) => {
        /// Every registered format, in detection order: detection asks them
        /// in this order and keeps the most confident; on a tie the earlier
        /// one wins (dialects before their base). Only what is compiled in.
        pub static FORMATS: &[registry::Format] = &[$($out)*];
    };
    (@list [$($out:tt)*] $feature:literal => $krate:ident as $alias:ident [$($def:path),+ $(,)?] $doc:literal; $($rest:tt)*) => {
        formats!(@list [$($out)* $(#[cfg(feature = $feature)] registry::Format::of($def),)+] $($rest)*);
    };
    (@list [$($out:tt)*] always [$($def:path),+ $(,)?]; $($rest:tt)*) => {
        formats!(@list [$($out)* $(registry::Format::of($def),)+] $($rest)*);
    };

    (@features [$($out:tt)*]) => {
        /// Every format feature of this crate, compiled in or not: what a
        /// program asks for with `features = [...]` (a test holds the
        /// crate's Cargo features to this list).
        pub static FEATURES: &[&str] = &[$($out)*];
    };
    (@features [$($out:tt)*] $feature:literal => $krate:ident as $alias:ident [$($def:path),+ $(,)?] $doc:literal; $($rest:tt)*) => {
        formats!(@features [$($out)* $feature,] $($rest)*);
    };
    (@features [$($out:tt)*] always [$($def:path),+ $(,)?]; $($rest:tt)*) => {
        formats!(@features [$($out)*] $($rest)*);
    };

    // The entry point (last: the rules above match their own steps first).
    ($($entries:tt)*) => {
        formats!(@reexports $($entries)*);
        formats!(@list [] $($entries)*);
        formats!(@features [] $($entries)*);
    };
}

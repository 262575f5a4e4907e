//! What a job makes ([`To`]), why it may write nothing ([`Refusal`]) and
//! where it failed ([`Stage`], [`JobError`]): the words the pipeline
//! ([`crate::job`]), the door to read ([`crate::read`]) and the targets
//! ([`crate::target`]) share, kept apart so that none of them imports
//! another's.

use markport_model::{Error, ErrorKind, WriteOptions};

use crate::registry::Format;

/// What a job makes of the collection it read.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum To {
    /// A collection in `format`, written with `options` (see
    /// [`choose_output`](crate::choose_output) for the format and options an output path asks for).
    Format {
        /// The format to write.
        format: &'static Format,
        /// How to write it.
        options: WriteOptions,
    },
    /// A static site of xFolk pages, a feed and a search index
    /// (`markport publish`): written into a [`Target::Directory`](crate::Target::Directory).
    #[cfg(feature = "publish")]
    Site(markport_publish::Options),
    /// Out through `via` and read back, to compare (`markport roundtrip`):
    /// nothing is written anywhere ([`Target::Nowhere`](crate::Target::Nowhere)).
    Trip {
        /// The format to go through.
        via: &'static Format,
        /// How to write it.
        options: WriteOptions,
    },
}

impl To {
    /// Whether what this makes is a directory of files (a favorites tree,
    /// a site), so its target is a directory, not a file.
    pub fn is_directory(&self) -> bool {
        match self {
            To::Format { format, .. } => format.directory().is_some(),
            #[cfg(feature = "publish")]
            To::Site(_) => true,
            To::Trip { .. } => false,
        }
    }

    /// The name of what is made, for messages: the format's, or `site`.
    pub fn name(&self) -> &'static str {
        match self {
            To::Format { format, .. } => format.name,
            #[cfg(feature = "publish")]
            To::Site(_) => "site",
            To::Trip { via, .. } => via.name,
        }
    }
}

/// Why a job wrote nothing although it could have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// [`Job::fail_on_loss`](crate::Job::fail_on_loss): something would not arrive whole.
    Loss,
    /// [`Job::fail_on_extension`](crate::Job::fail_on_extension): something rides in an extension.
    Extension,
    /// No bookmark is left of the inputs' (a filter or an operation
    /// removed them all) and [`Job::allow_empty`](crate::Job::allow_empty) was not given: an empty
    /// file by mistake is not written.
    Empty,
}

/// Which part of a job failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// Reading an input: the error's location is in that input.
    Read,
    /// Writing the output.
    Write,
    /// Merging or applying a requested operation ([`ops`](crate::ops)): it refused the
    /// collection.
    Operate,
}

/// Why a job failed, and where: a reader's error points into an input, a
/// writer's does not, and a program says the two differently.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct JobError {
    /// Reading, operating or writing.
    pub stage: Stage,
    /// What went wrong. A writing error of kind [`ErrorKind::Io`] is about
    /// the destination, and says so (`cannot write: ...`).
    pub error: Error,
    /// The format the input was being read as, once chosen.
    pub from: Option<&'static Format>,
    /// Which input (its index in [`Job::inputs`](crate::Job::inputs)) a reading error is about.
    pub input: Option<usize>,
}

impl JobError {
    pub(crate) fn new(stage: Stage, error: Error) -> JobError {
        JobError {
            stage,
            error,
            from: None,
            input: None,
        }
    }

    pub(crate) fn write(mut error: Error) -> JobError {
        if error.kind == ErrorKind::Io && !error.message.starts_with("cannot ") {
            error.message = format!("cannot write: {}", error.message);
        }
        JobError::new(Stage::Write, error)
    }

    pub(crate) fn operate(error: Error) -> JobError {
        JobError::new(Stage::Operate, error)
    }
}

impl std::fmt::Display for JobError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.stage {
            Stage::Read => write!(f, "reading: {}", self.error),
            Stage::Write => write!(f, "writing: {}", self.error),
            Stage::Operate => write!(f, "{}", self.error),
        }
    }
}

impl std::error::Error for JobError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

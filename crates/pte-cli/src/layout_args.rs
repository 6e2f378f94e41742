//! The layout options `rewrite` and `pack` share, declared once and named
//! as the library's `LayoutChange` names them (the change Python's `save`
//! and C's `pte_rewrite` make too).

use clap::{Args, ValueEnum};

use pte_file::{ConstantPlacement, DelegatePlacement, LayoutChange, SegmentLayout, WriteOptions};

use crate::failure::Failure;

/// Where legacy inline constants go.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum Constants {
    Keep,
    Segment,
}

/// Where delegate blobs go.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum Delegates {
    Keep,
    Inline,
    Segment,
}

/// Where segments go.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum Layout {
    Keep,
    Repack,
}

/// A `.pte`'s layout options; each left out keeps what the file shows.
#[derive(Args, Clone, Copy)]
pub(crate) struct LayoutArgs {
    /// Alignment of the segment base and every segment (repacks segments).
    #[arg(long)]
    pub(crate) segment_alignment: Option<u64>,
    /// Alignment of constant tensors in the constant segment (power of two; repacks it).
    #[arg(long)]
    pub(crate) constant_alignment: Option<u64>,
    /// Alignment of inline delegate data (power of two).
    #[arg(long)]
    pub(crate) delegate_alignment: Option<u64>,
    /// Where delegate blobs go.
    #[arg(long, value_enum, default_value = "keep")]
    pub(crate) delegates: Delegates,
    /// Legacy inline constants (constant_buffer): keep them, or move them into a constant segment.
    #[arg(long, value_enum, default_value = "keep")]
    pub(crate) constants: Constants,
    /// Alignment of constants laid out anew and of inline buffer storage (power of two).
    #[arg(long)]
    pub(crate) tensor_alignment: Option<u64>,
    /// Segments at their stored offsets, or placed anew in table order (exir's way).
    #[arg(long, value_enum, default_value = "keep")]
    pub(crate) layout: Layout,
}

impl LayoutArgs {
    /// The options as the library's [`LayoutChange`].
    pub(crate) fn change(&self) -> LayoutChange {
        LayoutChange {
            segment_alignment: self.segment_alignment,
            constant_alignment: self.constant_alignment,
            delegate_alignment: self.delegate_alignment,
            delegates: match self.delegates {
                Delegates::Keep => DelegatePlacement::Keep,
                Delegates::Inline => DelegatePlacement::Inline,
                Delegates::Segment => DelegatePlacement::Segment,
            },
            constants: match self.constants {
                Constants::Keep => None,
                Constants::Segment => Some(ConstantPlacement::Segment),
            },
            tensor_alignment: self.tensor_alignment,
            layout: match self.layout {
                Layout::Keep => SegmentLayout::Keep,
                Layout::Repack => SegmentLayout::Repack,
            },
        }
    }

    pub(crate) fn keeps_everything(&self) -> bool {
        self.change().is_none()
    }

    pub(crate) fn keeps_all_but_segments(&self) -> bool {
        self.change().keeps_all_but_segments()
    }

    pub(crate) fn apply(&self, base: WriteOptions) -> Result<WriteOptions, Failure> {
        Ok(self.change().apply(base)?)
    }
}

//! The payload schema's enums, open like the program's: an undeclared value
//! is kept and printed as its number.

use crate::open_enum::open_enum;

open_enum! {
    /// Element type of an XNNPACK value (`fb_xnnpack.XNNDatatype`, XNNPACK's
    /// `xnn_datatype` numbering).
    ///
    /// ```
    /// use pte_schema::xnnpack::XnnDatatype;
    /// assert_eq!(XnnDatatype::xnn_datatype_fp32.name(), Some("xnn_datatype_fp32"));
    /// assert_eq!(XnnDatatype::xnn_datatype_fp16.bits(), Some(16));
    /// ```
    XnnDatatype: i16 {
        xnn_datatype_invalid = 0, xnn_datatype_fp32 = 1, xnn_datatype_fp16 = 2, xnn_datatype_qint8 = 3,
        xnn_datatype_quint8 = 4, xnn_datatype_qint32 = 5, xnn_datatype_qcint8 = 6, xnn_datatype_qcint32 = 7,
        xnn_datatype_qcint4 = 8, xnn_datatype_qdint8 = 9, xnn_datatype_qbint4 = 10, xnn_datatype_qpint8 = 11,
        xnn_datatype_int32 = 12, xnn_datatype_pfp32 = 13, xnn_datatype_bf16 = 14,
    }
}

impl XnnDatatype {
    /// Bits per element of the stored data, `None` for types whose storage is
    /// not a plain array (invalid, the packed and dynamically quantized types)
    /// or undeclared values.
    ///
    /// ```
    /// assert_eq!(pte_schema::xnnpack::XnnDatatype::xnn_datatype_qcint4.bits(), Some(4));
    /// assert_eq!(pte_schema::xnnpack::XnnDatatype::xnn_datatype_qdint8.bits(), None);
    /// ```
    pub fn bits(self) -> Option<u64> {
        Some(match self {
            Self::xnn_datatype_fp32
            | Self::xnn_datatype_qint32
            | Self::xnn_datatype_qcint32
            | Self::xnn_datatype_int32 => 32,
            Self::xnn_datatype_fp16 | Self::xnn_datatype_bf16 => 16,
            Self::xnn_datatype_qint8 | Self::xnn_datatype_quint8 | Self::xnn_datatype_qcint8 => 8,
            Self::xnn_datatype_qcint4 | Self::xnn_datatype_qbint4 => 4,
            _ => return None,
        })
    }
}

open_enum! {
    /// The kind of an XNNPACK node (the `XNodeUnion` tag); several kinds share
    /// one table shape (every binary element-wise node is a `_XNNNode2x1`).
    ///
    /// ```
    /// use pte_schema::xnnpack::XNodeKind;
    /// assert_eq!(XNodeKind::XNNFullyConnected.0, 2);
    /// assert_eq!(XNodeKind(200).name(), None);
    /// ```
    XNodeKind: u8 {
        NONE = 0, XNNAdd = 1, XNNFullyConnected = 2, XNNSoftmax = 3, XNNSigmoid = 4, XNNStaticTranspose = 5,
        XNNClamp = 6, XNNConv2d = 7, XNNDiv = 8, XNNStaticResizeBilinear2D = 9, XNNStaticConstantPad = 10,
        XNNAvgPooling2d = 11, XNNMinimum = 12, XNNDepthwiseConv2d = 13, XNNMaxPooling2d = 14, XNNMultiply = 15,
        XNNSubtract = 16, XNNFloor = 17, XNNConvert = 18, XNNGlobalAvgPooling2d = 19, XNNStaticReshape = 20,
        XNNArgMaxPooling2d = 21, XNNSquareRoot = 22, XNNCeiling = 23, XNNHardswish = 24, XNNLeakyReLU = 25,
        XNNMaximum = 26, XNNNegate = 27, XNNSquare = 28, XNNELU = 29, XNNAbs = 30, XNNPReLU = 31,
        XNNConcatenate2 = 32, XNNConcatenate3 = 33, XNNConcatenate4 = 34, XNNStaticSlice = 35,
        XNNScaledDotProductAttention = 36, XNNBatchMatrixMultiply = 37, XNNConcatenate5 = 38,
        XNNConvTranspose2d = 39, XNNReciprocalSquareRoot = 40, XNNLog = 41, XNNGelu = 42, XNNTanh = 43,
        XNNExp = 44, XNNSin = 45, XNNCopy = 46, XNNCos = 47,
    }
}

//! Verified decoding of an `XNNGraph` flatbuffer.

use crate::decode_common::{from_verifier, infallible, scalars, string, tables};
use crate::fenced::xn;
use crate::limits::Limits;
use pte_core::{Error, ErrorKind, Result};

use super::enums::{XNodeKind, XnnDatatype};
use super::model::*;
use super::XNN_IDENTIFIERS;

/// Verifies `buf` (an `XNNGraph` flatbuffer, identifier `XN01` or the older
/// `XN00`) and decodes it.
///
/// An unknown union tag is an [`ErrorKind::Unsupported`] error naming the
/// field, as the runtime refuses the node or value.
///
/// ```
/// use pte_schema::xnnpack::*;
/// let bytes = std::fs::read(pte_testkit::corpus("xnnpack_mlp/model.pte"))?;
/// // the XNNPACK payload is the delegate segment at 1536; its flatbuffer starts 32 bytes in
/// let payload = &bytes[1536..1536 + 1184];
/// let g = decode_xnn_graph(&payload[32..32 + 1144], &Default::default())?;
/// assert_eq!(g.xnodes.as_ref().map(Vec::len), Some(2));
/// assert!(decode_xnn_graph(b"\x08\0\0\0ET12\0\0\0\0", &Default::default()).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn decode_xnn_graph(buf: &[u8], limits: &Limits) -> Result<XnnGraph> {
    graph(verify_xnn_root(buf, limits)?)
}

pub(crate) fn verify_xnn_root<'a>(buf: &'a [u8], limits: &Limits) -> Result<xn::XNNGraph<'a>> {
    let id = buf.get(4..8);
    if !XNN_IDENTIFIERS.iter().any(|known| id == Some(known.as_slice())) {
        let found =
            id.map_or_else(|| "nothing (too short)".to_string(), |f| format!("{:?}", String::from_utf8_lossy(f)));
        return Err(Error::new(ErrorKind::Malformed, format!("identifier is {found}, expected \"XN01\" or \"XN00\""))
            .at_path("identifier")
            .at_offset(4));
    }
    let opts = limits.verifier_options(buf.len());
    xn::root_as_xnngraph_with_opts(&opts, buf).map_err(from_verifier)
}

pub(crate) fn graph(g: xn::XNNGraph<'_>) -> Result<XnnGraph> {
    Ok(XnnGraph {
        version: string(g.version()),
        xnodes: tables(g.xnodes(), |i, n| node(i, n))?,
        xvalues: tables(g.xvalues(), |i, v| value(i, v))?,
        num_externs: g.num_externs(),
        input_ids: scalars(g.input_ids()),
        output_ids: scalars(g.output_ids()),
        constant_buffer: infallible(g.constant_buffer(), |b| Buffer {
            storage: b.storage().map(|s| s.bytes().to_vec()),
        }),
        mem_buffer_sizes: scalars(g.mem_buffer_sizes()),
        constant_data: infallible(g.constant_data(), |c| ConstantDataOffset {
            offset: c.offset(),
            size: c.size(),
            named_key: string(c.named_key()),
        }),
    })
}

fn missing_member(path: String, loc: usize) -> Error {
    Error::new(ErrorKind::Malformed, "union tag is set but its table is absent").at_path(path).at_offset(loc as u64)
}

fn unknown_tag(what: &str, tag: u8, path: String, loc: usize) -> Error {
    Error::new(ErrorKind::Unsupported, format!("unknown {what} union tag {tag}")).at_path(path).at_offset(loc as u64)
}

/// Pushes `(name, Field)` pairs in schema order; `us` fields (vectors) are
/// left out when absent, as flatc's JSON leaves them out.
macro_rules! fields {
    ($t:ident: $($f:ident : $k:ident),* $(,)?) => {
        [$( fields!(@one stringify!($f), $k, $t.$f()) ),*].into_iter().flatten().collect()
    };
    (@one $n:expr, u, $x:expr) => { Some(($n, Field::U32($x))) };
    (@one $n:expr, f, $x:expr) => { Some(($n, Field::F32($x))) };
    (@one $n:expr, us, $x:expr) => { $x.map(|x| ($n, Field::U32s(x.iter().collect()))) };
}

fn n2x1(t: xn::_XNNNode2x1<'_>) -> Vec<(&'static str, Field)> {
    fields!(t: input1_id: u, input2_id: u, output_id: u, flags: u)
}
fn n1x1(t: xn::_XNNNode1x1<'_>) -> Vec<(&'static str, Field)> {
    fields!(t: input_id: u, output_id: u, flags: u)
}
fn fully_connected(t: xn::XNNFullyConnected<'_>) -> Vec<(&'static str, Field)> {
    fields!(t: input1_id: u, filter_id: u, bias_id: u, output_id: u, flags: u)
}
fn transpose(t: xn::XNNStaticTranspose<'_>) -> Vec<(&'static str, Field)> {
    fields!(t: num_dims: u, perm: us, input_id: u, output_id: u, flags: u)
}
fn resize(t: xn::XNNStaticResizeBilinear2D<'_>) -> Vec<(&'static str, Field)> {
    fields!(t: new_height: u, new_width: u, input_id: u, output_id: u, flags: u)
}
fn pad(t: xn::XNNStaticConstantPad<'_>) -> Vec<(&'static str, Field)> {
    fields!(t: pre_paddings: us, post_paddings: us, padding_value: f, input_id: u, output_id: u, flags: u)
}
fn conv(t: xn::_XNNNodeConv<'_>) -> Vec<(&'static str, Field)> {
    fields!(t: padding_top: u, padding_right: u, padding_bottom: u, padding_left: u, kernel_height: u,
        kernel_width: u, subsampling_height: u, subsampling_width: u, dilation_height: u, dilation_width: u,
        group_input_channels: u, group_output_channels: u, groups: u, adjustment_height: u, adjustment_width: u,
        input1_id: u, filter_id: u, bias_id: u, output_id: u, flags: u)
}
fn pooling(t: xn::_XNNPooling2D<'_>) -> Vec<(&'static str, Field)> {
    fields!(t: padding_top: u, padding_right: u, padding_bottom: u, padding_left: u, pooling_height: u,
        pooling_width: u, stride_height: u, stride_width: u, dilation_height: u, dilation_width: u,
        input_id: u, output_id: u, flags: u)
}
fn reshape(t: xn::XNNStaticReshape<'_>) -> Vec<(&'static str, Field)> {
    fields!(t: num_dims: u, new_shape: us, input_id: u, output_id: u, flags: u)
}
fn arg_max(t: xn::XNNArgMaxPooling2d<'_>) -> Vec<(&'static str, Field)> {
    fields!(t: padding_top: u, padding_right: u, padding_bottom: u, padding_left: u, pooling_height: u,
        pooling_width: u, input_id: u, output_value_id: u, output_index_id: u, flags: u)
}
fn leaky_relu(t: xn::XNNLeakyReLU<'_>) -> Vec<(&'static str, Field)> {
    fields!(t: negative_slope: f, input_id: u, output_id: u, flags: u)
}
fn elu(t: xn::XNNELU<'_>) -> Vec<(&'static str, Field)> {
    fields!(t: alpha: f, input_id: u, output_id: u, flags: u)
}
fn cat(t: xn::_XNNCat<'_>) -> Vec<(&'static str, Field)> {
    fields!(t: axis: u, input1_id: u, input2_id: u, input3_id: u, input4_id: u, output_id: u, flags: u, input5_id: u)
}
fn slice(t: xn::XNNStaticSlice<'_>) -> Vec<(&'static str, Field)> {
    fields!(t: num_dims: u, offsets: us, sizes: us, input_id: u, output_id: u, flags: u)
}
fn sdpa(t: xn::XNNScaledDotProductAttention<'_>) -> Vec<(&'static str, Field)> {
    fields!(t: query_id: u, key_id: u, value_id: u, scale_id: u, mask_id: u, output_id: u, flags: u)
}

/// One arm per union member: its accessor and the shape of its table.
macro_rules! node_body {
    ($n:ident, $tag:expr, $missing:expr, $unknown:expr; $($T:ident => $acc:ident : $shape:ident),* $(,)?) => {
        match $tag {
            xn::XNodeUnion::NONE => Vec::new(),
            $( xn::XNodeUnion::$T => $shape($n.$acc().ok_or_else($missing)?), )*
            _ => return Err($unknown),
        }
    };
}

fn node(i: usize, n: xn::XNode<'_>) -> Result<XNode> {
    let loc = n._tab.loc();
    let tag = n.xnode_union_type();
    let missing = || missing_member(format!("xnodes[{i}].xnode_union"), loc);
    let unknown = unknown_tag("XNodeUnion", tag.0, format!("xnodes[{i}].xnode_union_type"), loc);
    let fields = node_body!(n, tag, missing, unknown;
        XNNAdd => xnode_union_as_xnnadd: n2x1,
        XNNFullyConnected => xnode_union_as_xnnfully_connected: fully_connected,
        XNNSoftmax => xnode_union_as_xnnsoftmax: n1x1,
        XNNSigmoid => xnode_union_as_xnnsigmoid: n1x1,
        XNNStaticTranspose => xnode_union_as_xnnstatic_transpose: transpose,
        XNNClamp => xnode_union_as_xnnclamp: n1x1,
        XNNConv2d => xnode_union_as_xnnconv_2d: conv,
        XNNDiv => xnode_union_as_xnndiv: n2x1,
        XNNStaticResizeBilinear2D => xnode_union_as_xnnstatic_resize_bilinear_2_d: resize,
        XNNStaticConstantPad => xnode_union_as_xnnstatic_constant_pad: pad,
        XNNAvgPooling2d => xnode_union_as_xnnavg_pooling_2d: pooling,
        XNNMinimum => xnode_union_as_xnnminimum: n2x1,
        XNNDepthwiseConv2d => xnode_union_as_xnndepthwise_conv_2d: conv,
        XNNMaxPooling2d => xnode_union_as_xnnmax_pooling_2d: pooling,
        XNNMultiply => xnode_union_as_xnnmultiply: n2x1,
        XNNSubtract => xnode_union_as_xnnsubtract: n2x1,
        XNNFloor => xnode_union_as_xnnfloor: n1x1,
        XNNConvert => xnode_union_as_xnnconvert: n1x1,
        XNNGlobalAvgPooling2d => xnode_union_as_xnnglobal_avg_pooling_2d: n1x1,
        XNNStaticReshape => xnode_union_as_xnnstatic_reshape: reshape,
        XNNArgMaxPooling2d => xnode_union_as_xnnarg_max_pooling_2d: arg_max,
        XNNSquareRoot => xnode_union_as_xnnsquare_root: n1x1,
        XNNCeiling => xnode_union_as_xnnceiling: n1x1,
        XNNHardswish => xnode_union_as_xnnhardswish: n1x1,
        XNNLeakyReLU => xnode_union_as_xnnleaky_re_lu: leaky_relu,
        XNNMaximum => xnode_union_as_xnnmaximum: n2x1,
        XNNNegate => xnode_union_as_xnnnegate: n1x1,
        XNNSquare => xnode_union_as_xnnsquare: n1x1,
        XNNELU => xnode_union_as_xnnelu: elu,
        XNNAbs => xnode_union_as_xnnabs: n1x1,
        XNNPReLU => xnode_union_as_xnnpre_lu: n2x1,
        XNNConcatenate2 => xnode_union_as_xnnconcatenate_2: cat,
        XNNConcatenate3 => xnode_union_as_xnnconcatenate_3: cat,
        XNNConcatenate4 => xnode_union_as_xnnconcatenate_4: cat,
        XNNStaticSlice => xnode_union_as_xnnstatic_slice: slice,
        XNNScaledDotProductAttention => xnode_union_as_xnnscaled_dot_product_attention: sdpa,
        XNNBatchMatrixMultiply => xnode_union_as_xnnbatch_matrix_multiply: n2x1,
        XNNConcatenate5 => xnode_union_as_xnnconcatenate_5: cat,
        XNNConvTranspose2d => xnode_union_as_xnnconv_transpose_2d: conv,
        XNNReciprocalSquareRoot => xnode_union_as_xnnreciprocal_square_root: n1x1,
        XNNLog => xnode_union_as_xnnlog: n1x1,
        XNNGelu => xnode_union_as_xnngelu: n1x1,
        XNNTanh => xnode_union_as_xnntanh: n1x1,
        XNNExp => xnode_union_as_xnnexp: n1x1,
        XNNSin => xnode_union_as_xnnsin: n1x1,
        XNNCopy => xnode_union_as_xnncopy: n1x1,
        XNNCos => xnode_union_as_xnncos: n1x1,
    );
    Ok(XNode {
        kind: XNodeKind(tag.0),
        fields,
        debug_handle: n.debug_handle(),
        output_min_max: n
            .output_min_max()
            .map(|m| OutputMinMax { output_min: m.output_min(), output_max: m.output_max() }),
    })
}

fn tensor(t: xn::XNNTensorValue<'_>) -> XnnTensorValue {
    XnnTensorValue {
        datatype: XnnDatatype(t.datatype().0),
        num_dims: t.num_dims(),
        dims: scalars(t.dims()),
        constant_buffer_idx: t.constant_buffer_idx(),
        external_id: t.external_id(),
        flags: t.flags(),
        id_out: t.id_out(),
        dq_datatype: XnnDatatype(t.dq_datatype().0),
    }
}

fn value(i: usize, v: xn::XValue<'_>) -> Result<XValue> {
    let loc = v._tab.loc();
    let path = format!("xvalues[{i}].xvalue_union");
    let missing = || missing_member(path.clone(), loc);
    let value = match v.xvalue_union_type() {
        xn::XValueUnion::NONE => None,
        xn::XValueUnion::XNNTensorValue => {
            Some(XValueUnion::XNNTensorValue(tensor(v.xvalue_union_as_xnntensor_value().ok_or_else(missing)?)))
        }
        xn::XValueUnion::XNNQuantizedTensorValue => {
            let q = v.xvalue_union_as_xnnquantized_tensor_value().ok_or_else(missing)?;
            Some(XValueUnion::XNNQuantizedTensorValue(XnnQuantizedTensorValue {
                tensor_value: q.tensor_value().map(tensor),
                quant_params: quant(q, &path)?,
            }))
        }
        other => return Err(unknown_tag("XValueUnion", other.0, format!("xvalues[{i}].xvalue_union_type"), loc)),
    };
    Ok(XValue { value })
}

fn quant(q: xn::XNNQuantizedTensorValue<'_>, path: &str) -> Result<Option<QuantParams>> {
    use xn::XNNQuantParams as Q;
    let loc = q._tab.loc();
    let missing = || missing_member(format!("{path}.quant_params"), loc);
    Ok(Some(match q.quant_params_type() {
        Q::NONE => return Ok(None),
        Q::PerChannelQuant => {
            let p = q.quant_params_as_per_channel_quant().ok_or_else(missing)?;
            QuantParams::PerChannelQuant {
                scale: scalars(p.scale()),
                channel_dim: p.channel_dim(),
                scale_buffer_idx: p.scale_buffer_idx(),
                num_scales: p.num_scales(),
            }
        }
        Q::PerTensorQuant => {
            let p = q.quant_params_as_per_tensor_quant().ok_or_else(missing)?;
            QuantParams::PerTensorQuant { scale: p.scale(), zero_point: p.zero_point() }
        }
        Q::PerTokenDynamicQuant => {
            let p = q.quant_params_as_per_token_dynamic_quant().ok_or_else(missing)?;
            QuantParams::PerTokenDynamicQuant { num_nonbatch_dims: p.num_nonbatch_dims() }
        }
        Q::PerChannelGroupQuant => {
            let p = q.quant_params_as_per_channel_group_quant().ok_or_else(missing)?;
            QuantParams::PerChannelGroupQuant {
                scale: scalars(p.scale()),
                channel_dim: p.channel_dim(),
                group_size: p.group_size(),
                scale_buffer_idx: p.scale_buffer_idx(),
                num_scales: p.num_scales(),
            }
        }
        other => {
            return Err(unknown_tag("XNNQuantParams", other.0, format!("{path}.quant_params_type"), loc));
        }
    }))
}

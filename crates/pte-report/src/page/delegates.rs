//! The delegates part: each delegate's blob and, for a backend with a
//! payload reader (XNNPACK, the native backend), its payload in brief, as
//! `pte info` shows it (the door's typed [`pte::PayloadRow`]).

use std::fmt::Write as _;

use pte::PayloadRow;
use pte_file::view::PteView;

use super::context::{open, Ctx};
use super::summary::method_name;
use crate::html::{escape, head_row, row, thousands};

/// Lines of a payload's tensor and key lists shown before the rest are counted.
const MAX_LINES: usize = 200;

fn list(s: &mut String, title: &str, items: &[String]) {
    let _ = write!(s, "<h5>{} ({})</h5><ul class=\"payload\">", escape(title), thousands(items.len() as u64));
    for i in items.iter().take(MAX_LINES) {
        let _ = write!(s, "<li><code>{}</code></li>", escape(i));
    }
    if items.len() > MAX_LINES {
        let _ = write!(s, "<li>… {} more</li>", thousands(items.len().saturating_sub(MAX_LINES) as u64));
    }
    s.push_str("</ul>");
}

/// The part, when the program has delegates.
pub(super) fn section(cx: &mut Ctx, pte: &PteView<'_>) -> Option<String> {
    let program = pte.program();
    let plans: Vec<_> = (0..program.plan_count()).filter_map(|p| program.plan(p)).collect();
    let any = plans.iter().any(|p| p.delegates().is_some_and(|d| d.len() > 0));
    if !any {
        return None;
    }
    let mut s = open(cx, "delegates", "Delegates");
    let Some(blobs) = pte.delegates() else {
        // the view says only that a blob does not resolve; the decoded
        // program says which and why (a damaged file's rare path)
        let why = pte_file::PteFile::from_bytes(pte.bytes())
            .and_then(|p| p.delegate_blobs().map(drop))
            .err()
            .map_or_else(|| "a delegate's processed data does not resolve".to_string(), |e| e.to_string());
        s.push_str(&cx.fail("the delegate blobs", why));
        s.push_str("</section>\n");
        return Some(s);
    };
    s.push_str("<div class=\"scroll\"><table class=\"delegates\">");
    s.push_str(&head_row(&["#", "method", "delegate", "backend", "stored", "bytes", "payload"]));
    let mut details = String::new();
    for (n, b) in blobs.iter().enumerate() {
        let method = plans.get(b.plan).map_or_else(|| format!("plan{}", b.plan), |p| method_name(p, b.plan));
        let payload = PayloadRow::of(b.id, b.bytes);
        let brief = match &payload {
            None => "no reader for this backend".to_string(),
            Some(PayloadRow::Unreadable { error }) => format!("unreadable: {error}"),
            Some(PayloadRow::Read { format, nodes, .. }) => {
                let count = nodes.values().fold(0u64, |n, &c| n.saturating_add(c as u64));
                format!("{format}, {} nodes", thousands(count))
            }
            Some(_) => "a payload of a form this report does not show".to_string(),
        };
        s.push_str(&row(
            None,
            &[
                n.to_string(),
                method.clone(),
                b.delegate.to_string(),
                b.id.to_string(),
                format!("{}[{}]", b.location.name().unwrap_or("unknown"), b.index),
                thousands(b.bytes.len() as u64),
                brief,
            ],
        ));
        if let Some(PayloadRow::Read { format, named_keys, nodes, tensors }) = &payload {
            let _ = write!(
                details,
                "<details class=\"payload\"><summary>Delegate {n}: {} of {} ({})</summary>",
                escape(b.id),
                escape(&method),
                escape(format)
            );
            let nodes: Vec<String> = nodes.iter().map(|(k, c)| format!("{k} ×{c}")).collect();
            let _ = write!(details, "<p>Nodes: {}</p>", escape(&nodes.join(", ")));
            list(&mut details, "Tensors", tensors);
            list(&mut details, "Named-data keys", named_keys);
            details.push_str("</details>");
        }
    }
    s.push_str("</table></div>");
    s.push_str(&details);
    s.push_str("</section>\n");
    Some(s)
}

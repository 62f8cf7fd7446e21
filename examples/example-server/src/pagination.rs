//! Cursor pagination of list results.
//!
//! A cursor names the first item of the next page. Clients must treat it as opaque; naming an
//! item rather than counting an offset keeps a listing free of repeats when the list grows
//! between two pages, as the tool list does after `add_tool`.

use rmcp::ErrorData;

#[derive(Debug, PartialEq)]
pub(crate) struct Page<T> {
    pub(crate) items: Vec<T>,
    pub(crate) next_cursor: Option<String>,
}

/// The page of `items` (sorted, uniquely named by `name`) that starts at `cursor`.
/// Without a `page_size`, everything from the cursor on is one page.
pub(crate) fn page<T>(
    mut items: Vec<T>,
    cursor: Option<&str>,
    page_size: Option<usize>,
    name: impl Fn(&T) -> &str,
) -> Result<Page<T>, ErrorData> {
    if let Some(cursor) = cursor {
        let start = items
            .iter()
            .position(|item| name(item) == cursor)
            .ok_or_else(|| ErrorData::invalid_params(format!("invalid cursor: {cursor}"), None))?;
        items.drain(..start);
    }
    let next_cursor = match page_size {
        Some(size) if items.len() > size => Some(name(&items[size]).to_owned()),
        _ => None,
    };
    if let Some(size) = page_size {
        items.truncate(size);
    }
    Ok(Page { items, next_cursor })
}

#[cfg(test)]
mod tests {
    use rmcp::model::ErrorCode;

    use super::*;

    fn names(items: &[&str], cursor: Option<&str>, size: usize) -> Page<String> {
        let items = items.iter().map(|item| item.to_string()).collect();
        page(items, cursor, Some(size), String::as_str).expect("valid cursor")
    }

    /// An item added before the cursor between two requests must not make the next page
    /// repeat an item already listed, as an offset cursor would ("echo" here).
    #[test]
    fn a_list_growing_between_pages_repeats_nothing() {
        let first = names(&["add", "echo", "fail", "slow"], None, 2);
        assert_eq!(first.items, ["add", "echo"]);
        assert_eq!(first.next_cursor.as_deref(), Some("fail"));

        let second = names(&["abs", "add", "echo", "fail", "slow"], Some("fail"), 2);
        assert_eq!(second.items, ["fail", "slow"]);
        assert_eq!(second.next_cursor, None);
    }

    #[test]
    fn an_unknown_cursor_is_invalid_params() {
        let error = page(vec!["add"], Some("nope"), Some(1), |item| item).unwrap_err();
        assert_eq!(error.code, ErrorCode::INVALID_PARAMS);
        assert_eq!(error.message, "invalid cursor: nope");
    }
}

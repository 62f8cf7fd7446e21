//! Newline-delimited JSON-RPC over a byte stream: the stdio transport and the in-process
//! transport share it.
//!
//! rmcp's own codec skips lines that are not JSON. A harness must not: a server that
//! prints a debug line to stdout is broken for every real client, so the first such line is
//! recorded as a [`Fault`](super::diagnostics::Fault) and ends the connection.

use std::{io, sync::Arc};

use rmcp::{
    service::{RoleClient, RxJsonRpcMessage, TxJsonRpcMessage},
    transport::Transport,
};
use tokio::{
    io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader},
    sync::Mutex,
};

use super::{
    diagnostics::{Diagnostics, Fault},
    raw::RawChannel,
};

const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

/// The most the line buffer keeps between messages; one larger message does not hold its
/// memory for the rest of the session.
const KEPT_CAPACITY: usize = 64 * 1024;

pub(crate) struct LineTransport<R, W> {
    reader: BufReader<R>,
    writer: Arc<Mutex<Option<W>>>,
    /// A line being read; kept across cancelled `receive` calls so no bytes are lost.
    line: Vec<u8>,
    diagnostics: Arc<Diagnostics>,
}

impl<R, W> LineTransport<R, W>
where
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    pub(crate) fn new(reader: R, writer: W, diagnostics: Arc<Diagnostics>) -> Self {
        let writer = Arc::new(Mutex::new(Some(writer)));
        let shared = Arc::clone(&writer);
        diagnostics
            .raw
            .set(RawChannel::Lines(Arc::new(move |line: Vec<u8>| {
                Box::pin(write_line(Arc::clone(&shared), line))
            })));
        LineTransport {
            reader: BufReader::new(reader),
            writer,
            line: Vec::new(),
            diagnostics,
        }
    }
}

impl<R, W> Transport<RoleClient> for LineTransport<R, W>
where
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    type Error = io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleClient>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let writer = self.writer.clone();
        async move {
            // Room for a request with its `_meta` and the newline, grown as rarely as may be.
            let mut bytes = Vec::with_capacity(512);
            serde_json::to_writer(&mut bytes, &item).map_err(io::Error::other)?;
            bytes.push(b'\n');
            write_line(writer, bytes).await
        }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleClient>> {
        loop {
            match self.reader.read_until(b'\n', &mut self.line).await {
                Ok(0) => {
                    if !self.line.is_empty() {
                        let partial = std::mem::take(&mut self.line);
                        self.diagnostics.record_undecodable(
                            &partial,
                            "the stream ended in the middle of a message",
                        );
                    }
                    return None;
                }
                Ok(_) if !self.line.ends_with(b"\n") => continue, // end of stream next
                Ok(_) => {}
                Err(error) => {
                    self.diagnostics.record(Fault::Broken {
                        status: None,
                        reason: format!("reading from the server failed: {error}"),
                    });
                    return None;
                }
            }
            let content = trim(&self.line);
            if content.is_empty() {
                self.line.clear();
                continue;
            }
            let message = match crate::decode::server_message(content) {
                Ok(message) => {
                    self.diagnostics.wire.arrived_decoded(content, &message);
                    Some(message)
                }
                Err(error) => {
                    self.diagnostics.record_undecodable(content, error);
                    None
                }
            };
            // The buffer is kept for the next line at the size messages have: a fresh one
            // would grow again, copy by copy, for each message.
            self.line.clear();
            self.line.shrink_to(KEPT_CAPACITY);
            return message;
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        if let Some(mut writer) = self.writer.lock().await.take() {
            // The peer sees end of input; a stdio server exits on it.
            let _ = writer.shutdown().await;
        }
        Ok(())
    }
}

/// Writes a whole line, unless the transport is closed.
async fn write_line<W: AsyncWrite + Unpin>(
    writer: Arc<Mutex<Option<W>>>,
    line: Vec<u8>,
) -> io::Result<()> {
    let mut writer = writer.lock().await;
    let writer = writer
        .as_mut()
        .ok_or_else(|| io::Error::new(io::ErrorKind::BrokenPipe, "the transport is closed"))?;
    writer.write_all(&line).await?;
    writer.flush().await
}

fn trim(line: &[u8]) -> &[u8] {
    let line = line.strip_prefix(UTF8_BOM).unwrap_or(line);
    let end = line
        .iter()
        .rposition(|b| !b.is_ascii_whitespace())
        .map_or(0, |i| i + 1);
    &line[..end]
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::duplex;

    #[tokio::test]
    async fn decodes_messages_and_skips_blank_lines() {
        let (client, mut server) = duplex(4096);
        let (read, write) = tokio::io::split(client);
        let diagnostics = Diagnostics::new();
        let mut transport = LineTransport::new(read, write, diagnostics.clone());
        server
            .write_all(b"\r\n\xEF\xBB\xBF{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\r\n")
            .await
            .unwrap();
        let message = transport.receive().await.expect("a message");
        let json = serde_json::to_value(&message).unwrap();
        assert_eq!(json["id"], 1);
        assert!(diagnostics.fault().is_none());
    }

    #[tokio::test]
    async fn junk_ends_the_stream_and_is_recorded() {
        let (client, mut server) = duplex(4096);
        let (read, write) = tokio::io::split(client);
        let diagnostics = Diagnostics::new();
        let mut transport = LineTransport::new(read, write, diagnostics.clone());
        server.write_all(b"Server starting...\n").await.unwrap();
        assert!(transport.receive().await.is_none());
        match diagnostics.fault() {
            Some(Fault::Undecodable { line, .. }) => assert_eq!(line, "Server starting..."),
            other => panic!("expected an undecodable fault, got {other:?}"),
        }
    }

    #[tokio::test]
    async fn a_truncated_last_message_is_recorded() {
        let (client, mut server) = duplex(4096);
        let (read, write) = tokio::io::split(client);
        let diagnostics = Diagnostics::new();
        let mut transport = LineTransport::new(read, write, diagnostics.clone());
        server.write_all(b"{\"jsonrpc\":").await.unwrap();
        drop(server);
        assert!(transport.receive().await.is_none());
        assert!(matches!(
            diagnostics.fault(),
            Some(Fault::Undecodable { reason, .. }) if reason.contains("ended in the middle")
        ));
    }
}

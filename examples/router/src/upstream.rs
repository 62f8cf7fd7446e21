//! One upstream MCP server as the router's client sees it: connected on first use, again
//! after it dropped, each request bounded by the call timeout; what it tells or asks its
//! client goes on to the router's own client.

use std::time::Duration;

use rmcp::{
    ClientHandler, ErrorData, RoleClient, RoleServer, ServiceError, ServiceExt,
    model::{
        CallToolRequestParams, CallToolResult, ClientCapabilities, ClientConfig,
        ElicitRequestParams, ElicitResult, Implementation, ProtocolVersion, Tool,
    },
    service::{NotificationContext, Peer, RequestContext, RunningService},
    transport::{
        StreamableHttpClientTransport, TokioChildProcess,
        streamable_http_client::StreamableHttpClientTransportConfig,
    },
};
use tokio::{process::Command, sync::Mutex};

use crate::config::{Source, UpstreamConfig};

/// How long connecting to an upstream (spawning it, `initialize`) may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(30);

/// An upstream server and the router's connection to it, if open.
#[derive(Debug)]
pub(crate) struct Upstream {
    pub(crate) name: String,
    source: Source,
    call_timeout: Duration,
    connection: Mutex<Option<RunningService<RoleClient, UpstreamClient>>>,
}

/// Why a request to an upstream failed, as the tool error the router's client reads.
pub(crate) type Failure = String;

impl Upstream {
    pub(crate) fn new(config: UpstreamConfig, call_timeout: Duration) -> Upstream {
        Upstream {
            name: config.name,
            source: config.source,
            call_timeout,
            connection: Mutex::new(None),
        }
    }

    /// Its tools, as it lists them.
    pub(crate) async fn tools(&self, downstream: &Peer<RoleServer>) -> Result<Vec<Tool>, Failure> {
        let peer = self.peer(downstream).await?;
        self.bounded("tools/list", peer.list_all_tools()).await
    }

    /// Calls its tool `params.name` with the arguments as given.
    pub(crate) async fn call(
        &self,
        params: CallToolRequestParams,
        downstream: &Peer<RoleServer>,
    ) -> Result<CallToolResult, Failure> {
        let peer = self.peer(downstream).await?;
        let what = format!("tools/call {}", params.name);
        self.bounded(&what, peer.call_tool(params)).await
    }

    /// The open connection, or a new one when there is none or it closed.
    async fn peer(&self, downstream: &Peer<RoleServer>) -> Result<Peer<RoleClient>, Failure> {
        let mut connection = self.connection.lock().await;
        if let Some(open) = connection.as_ref().filter(|open| !open.is_closed()) {
            return Ok(open.peer().clone());
        }
        let client = UpstreamClient {
            downstream: downstream.clone(),
        };
        let connected = tokio::time::timeout(CONNECT_TIMEOUT, self.connect(client))
            .await
            .map_err(|_| {
                format!(
                    "upstream `{}` did not connect within {CONNECT_TIMEOUT:?}",
                    self.name
                )
            })??;
        let peer = connected.peer().clone();
        *connection = Some(connected);
        Ok(peer)
    }

    async fn connect(
        &self,
        client: UpstreamClient,
    ) -> Result<RunningService<RoleClient, UpstreamClient>, Failure> {
        let unreachable = |error: &dyn std::fmt::Display| {
            format!("upstream `{}` is unreachable: {error}", self.name)
        };
        match &self.source {
            Source::Http { url, bearer_token } => {
                let mut config = StreamableHttpClientTransportConfig::with_uri(url.as_str());
                if let Some(token) = bearer_token {
                    // rmcp sends it as `Authorization: Bearer <token>`.
                    config = config.auth_header(token.as_str());
                }
                let transport = StreamableHttpClientTransport::from_config(config);
                client.serve(transport).await.map_err(|e| unreachable(&e))
            }
            Source::Command { program, args } => {
                let mut command = Command::new(program);
                command.args(args);
                let transport = TokioChildProcess::new(command).map_err(|e| unreachable(&e))?;
                client.serve(transport).await.map_err(|e| unreachable(&e))
            }
        }
    }

    /// Runs one request under the call timeout. A connection that failed is forgotten, so
    /// the next request connects again; one that was only slow is kept.
    async fn bounded<T>(
        &self,
        what: &str,
        request: impl Future<Output = Result<T, ServiceError>>,
    ) -> Result<T, Failure> {
        let name = &self.name;
        match tokio::time::timeout(self.call_timeout, request).await {
            Ok(Ok(answer)) => Ok(answer),
            Ok(Err(ServiceError::McpError(error))) => Err(format!(
                "upstream `{name}` answered {what} with error {}: {}",
                error.code.0, error.message
            )),
            Ok(Err(error)) => {
                self.connection.lock().await.take();
                Err(format!(
                    "upstream `{name}` failed on {what}: {error}; the router reconnects on the next call"
                ))
            }
            // Dropping the request sent `notifications/cancelled` upstream.
            Err(_) => Err(format!(
                "upstream `{name}` did not answer {what} within the router's timeout of {} ms \
                 (ROUTER_CALL_TIMEOUT_MS)",
                self.call_timeout.as_millis()
            )),
        }
    }
}

/// The router's client side of one upstream connection: what the upstream tells or asks,
/// passed on to the router's own client.
#[derive(Debug)]
pub(crate) struct UpstreamClient {
    downstream: Peer<RoleServer>,
}

impl ClientHandler for UpstreamClient {
    /// Revision 2025-11-25: the newest with server→client requests and unsolicited
    /// `list_changed`, both of which the router passes on. It offers elicitation only when
    /// its own client does.
    fn get_info(&self) -> ClientConfig {
        let mut capabilities = ClientCapabilities::default();
        capabilities.elicitation = self
            .downstream
            .peer_info()
            .and_then(|info| info.capabilities.elicitation.clone());
        ClientConfig::new(
            capabilities,
            Implementation::new("router", env!("CARGO_PKG_VERSION")),
        )
        .with_protocol_version(ProtocolVersion::V_2025_11_25)
    }

    async fn on_tool_list_changed(&self, _context: NotificationContext<RoleClient>) {
        if let Err(error) = self.downstream.notify_tool_list_changed().await {
            eprintln!("router: could not tell the client that the tools changed: {error}");
        }
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        self.downstream
            .create_elicitation(request)
            .await
            .map_err(|error| match error {
                ServiceError::McpError(error) => error,
                other => ErrorData::internal_error(
                    format!("the router's client did not answer the elicitation: {other}"),
                    None,
                ),
            })
    }
}

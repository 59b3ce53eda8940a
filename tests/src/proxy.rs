//! A small round-robin HTTP proxy, as a load balancer in front of several `tabula run`
//! processes: each request goes to the next backend in turn; a backend that refuses the
//! connection (a killed process) is skipped and the request tried on the next, as a load
//! balancer's passive health check does. Requests that reached a backend are not retried.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use axum::body::Bytes;
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};

/// The proxy: where it listens, and how many requests each backend answered.
#[derive(Debug, Clone)]
pub struct RoundRobin {
    inner: Arc<Inner>,
    /// Its address, `http://127.0.0.1:<port>`.
    pub url: String,
}

#[derive(Debug)]
struct Inner {
    backends: Vec<String>,
    next: AtomicUsize,
    answered: Mutex<Vec<usize>>,
    client: reqwest::Client,
}

impl RoundRobin {
    /// Starts a proxy on 127.0.0.1 in front of `backends` (`http://host:port`, no trailing
    /// slash).
    ///
    /// # Panics
    /// If it cannot listen.
    pub async fn start(backends: Vec<String>) -> RoundRobin {
        let inner = Arc::new(Inner {
            answered: Mutex::new(vec![0; backends.len()]),
            backends,
            next: AtomicUsize::new(0),
            client: reqwest::Client::builder()
                .redirect(reqwest::redirect::Policy::none())
                .build()
                .expect("an HTTP client"),
        });
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("the proxy listens");
        let url = format!(
            "http://{}",
            listener.local_addr().expect("the proxy's address")
        );
        let state = Arc::clone(&inner);
        let app = axum::Router::new().fallback(
            move |method: Method, uri: Uri, headers: HeaderMap, body: Bytes| {
                let inner = Arc::clone(&state);
                async move { forward(&inner, method, &uri, &headers, body).await }
            },
        );
        tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        RoundRobin { inner, url }
    }

    /// How many requests each backend answered, in the backends' order.
    pub fn answered(&self) -> Vec<usize> {
        self.inner
            .answered
            .lock()
            .map(|a| a.clone())
            .unwrap_or_default()
    }
}

async fn forward(
    inner: &Inner,
    method: Method,
    uri: &Uri,
    headers: &HeaderMap,
    body: Bytes,
) -> Response {
    let path = uri.path_and_query().map_or("/", |p| p.as_str());
    let count = inner.backends.len();
    for _ in 0..count {
        let index = inner.next.fetch_add(1, Ordering::SeqCst) % count;
        let mut request = inner
            .client
            .request(method.clone(), format!("{}{path}", inner.backends[index]))
            .body(body.clone());
        for (name, value) in headers {
            if name != "host" && name != "content-length" {
                request = request.header(name, value);
            }
        }
        match request.send().await {
            Ok(response) => {
                if let Ok(mut answered) = inner.answered.lock() {
                    answered[index] += 1;
                }
                let status = response.status();
                let mut out = HeaderMap::new();
                for (name, value) in response.headers() {
                    if name != "content-length" && name != "transfer-encoding" {
                        out.insert(name.clone(), value.clone());
                    }
                }
                let bytes = response.bytes().await.unwrap_or_default();
                return (status, out, bytes).into_response();
            }
            // A process that is gone: the next one takes it.
            Err(error) if error.is_connect() => {}
            Err(_) => return StatusCode::BAD_GATEWAY.into_response(),
        }
    }
    StatusCode::BAD_GATEWAY.into_response()
}

/// A TCP forwarder to one address that a test can make hang, as a database server that stops
/// answering: while cut, the connections it holds forward nothing and new ones are taken and
/// left waiting; restored, it forwards again (the connections held meanwhile are closed, as a
/// network that comes back after the peers gave up).
#[derive(Debug, Clone)]
pub struct Cuttable {
    cut: Arc<tokio::sync::watch::Sender<bool>>,
    /// The port it listens on (127.0.0.1).
    pub port: u16,
}

impl Cuttable {
    /// Starts forwarding 127.0.0.1:`port` to `target` (`host:port`).
    ///
    /// # Panics
    /// If it cannot listen.
    pub async fn start(target: &str) -> Cuttable {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("the forwarder listens");
        let port = listener.local_addr().expect("its address").port();
        let (cut, _) = tokio::sync::watch::channel(false);
        let cut = Arc::new(cut);
        let target = target.to_string();
        let watch = Arc::clone(&cut);
        tokio::spawn(async move {
            while let Ok((client, _)) = listener.accept().await {
                let mut cut = watch.subscribe();
                let target = target.clone();
                tokio::spawn(async move {
                    // A connection made while cut waits until it is restored, then is closed.
                    let cut_now = *cut.borrow_and_update();
                    if cut_now {
                        let _ = cut.wait_for(|c| !*c).await;
                        return;
                    }
                    let Ok(server) = tokio::net::TcpStream::connect(&target).await else {
                        return;
                    };
                    let (mut client_read, mut client_write) = client.into_split();
                    let (mut server_read, mut server_write) = server.into_split();
                    tokio::select! {
                        _ = tokio::io::copy(&mut client_read, &mut server_write) => {}
                        _ = tokio::io::copy(&mut server_read, &mut client_write) => {}
                        _ = cut.wait_for(|c| *c) => {}
                    }
                    // Cut: nothing more passes; the connection hangs until restored.
                    if *cut.borrow() {
                        let _ = cut.wait_for(|c| !*c).await;
                    }
                });
            }
        });
        Cuttable { cut, port }
    }

    /// Cuts (`true`) or restores (`false`) the connection.
    pub fn set_cut(&self, cut: bool) {
        self.cut.send_replace(cut);
    }
}

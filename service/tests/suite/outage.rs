//! Issue 14 item 18: when PostgreSQL goes away mid-run, a request fails within a few seconds
//! with "the bot cannot reach its database", and once the server is back the bot recovers by
//! itself, with nothing it had acknowledged lost. The server is cut off by a TCP proxy between
//! the bot and PostgreSQL, so the test needs no control of the server itself.

use crate::common;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use tabula_service::service::{Dice, Input, Person, Request, Service};
use tabula_service::store::{DatabaseUrl, Platform, Store};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Mutex;
use tokio::task::JoinHandle;

/// A TCP proxy to the database server that can be cut (every connection dropped, new ones
/// refused) and restored.
struct Proxy {
    port: u16,
    cut: Arc<AtomicBool>,
    links: Arc<Mutex<Vec<JoinHandle<()>>>>,
}

impl Proxy {
    async fn start(target: String) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let port = listener.local_addr().expect("addr").port();
        let cut = Arc::new(AtomicBool::new(false));
        let links: Arc<Mutex<Vec<JoinHandle<()>>>> = Arc::default();
        let (flag, all) = (Arc::clone(&cut), Arc::clone(&links));
        tokio::spawn(async move {
            while let Ok((mut client, _)) = listener.accept().await {
                if flag.load(Ordering::SeqCst) {
                    drop(client);
                    continue;
                }
                let target = target.clone();
                let link = tokio::spawn(async move {
                    if let Ok(mut server) = TcpStream::connect(&target).await {
                        let _ = tokio::io::copy_bidirectional(&mut client, &mut server).await;
                    }
                });
                all.lock().await.push(link);
            }
        });
        Proxy { port, cut, links }
    }

    async fn cut(&self) {
        self.cut.store(true, Ordering::SeqCst);
        for link in self.links.lock().await.drain(..) {
            link.abort();
        }
    }

    fn restore(&self) {
        self.cut.store(false, Ordering::SeqCst);
    }
}

/// The URL with its host and port replaced by the proxy's, and the server's `host:port`.
fn through(url: &DatabaseUrl, port: u16) -> (DatabaseUrl, String) {
    let raw = url.expose_secret();
    let (scheme, rest) = raw.split_once("://").expect("a URL");
    let (auth, rest) = match rest.split_once('@') {
        Some((auth, rest)) => (format!("{auth}@"), rest),
        None => (String::new(), rest),
    };
    let end = rest.find(['/', '?']).unwrap_or(rest.len());
    let server = rest[..end].to_string();
    let server = if server.contains(':') {
        server
    } else {
        format!("{server}:5432")
    };
    (
        DatabaseUrl::new(format!("{scheme}://{auth}127.0.0.1:{port}{}", &rest[end..])),
        server,
    )
}

fn request(key: &str, user: &str, text: &str) -> Request {
    let mut request = Request::new(
        Platform::Local,
        ("outage", "Outage"),
        Person::new(user, user).with_username(user),
        key,
        Input::Command(text.into()),
    );
    request.mentions = tabula_service::service::typed_mentions(text);
    request
}

async fn outage(url: DatabaseUrl) {
    let probe = through(&url, 1).1;
    let proxy = Proxy::start(probe).await;
    let (proxied, _) = through(&url, proxy.port);
    let store = Store::connect(&proxied).await.expect("through the proxy");
    let service = Service::new(store.clone(), Dice::Os);
    let made = service
        .handle(&request("1", "alice", "/play konane @bob"))
        .await
        .expect("before the outage")
        .expect("an answer");
    assert!(made.is_done(), "{}", made.plain_text());

    proxy.cut().await;
    let asked = Instant::now();
    let failed = service
        .handle(&request("2", "bob", "/accept"))
        .await
        .expect_err("the database is unreachable");
    assert!(failed.is_unavailable(), "{failed}");
    assert!(
        asked.elapsed() < Duration::from_secs(10),
        "failing took {:?}",
        asked.elapsed()
    );

    proxy.restore();
    let deadline = Instant::now() + Duration::from_secs(20);
    let accepted = loop {
        match service.handle(&request("3", "bob", "/accept")).await {
            Ok(Some(reply)) => break reply,
            Ok(None) => panic!("no answer"),
            Err(error) => {
                assert!(error.is_unavailable(), "{error}");
                assert!(Instant::now() < deadline, "no recovery: {error}");
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        }
    };
    // The challenge made before the outage was kept, and is accepted now.
    assert!(accepted.is_done(), "{}", accepted.plain_text());
    assert!(accepted.game.is_some(), "{}", accepted.plain_text());
    store.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: set TABULA_TEST_POSTGRES_URL and pass --include-ignored (.ci/run does)"]
async fn postgres_going_away_fails_fast_and_recovers() {
    common::on_postgres("outage", outage).await;
}

//! Headless Chromium for the tests of the games' web pages (issue 41), driven through the
//! DevTools protocol over its WebSocket (the tokio-tungstenite the fakes use): open a page,
//! evaluate JavaScript in it, press keys, take a screenshot. The test that uses it is ignored
//! unless asked for (`--include-ignored`, as `.ci/run` does after installing Debian's
//! `chromium`); then it fails without a browser.

use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::io::AsyncBufReadExt;
use tokio::net::TcpStream;
use tokio::process::{Child, Command};
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::Message;

/// A running headless Chromium and one page of it.
#[derive(Debug)]
pub struct Browser {
    child: Child,
    socket: WebSocketStream<TcpStream>,
    session: String,
    next: u64,
    dir: PathBuf,
}

/// The browser's program: `TABULA_TEST_CHROMIUM`, or Debian's `chromium`.
fn program() -> String {
    std::env::var("TABULA_TEST_CHROMIUM").unwrap_or_else(|_| "chromium".to_string())
}

impl Browser {
    /// Starts the browser with one blank page of `width` × `height` and `language`
    /// (`Accept-Language`).
    ///
    /// # Panics
    /// If it cannot be started or does not answer.
    pub async fn start(width: u32, height: u32, language: &str) -> Browser {
        let dir = crate::bot_process::scratch_dir("chromium");
        let mut child = Command::new(program())
            .args([
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--disable-dev-shm-usage",
                "--remote-debugging-port=0",
                &format!("--lang={language}"),
                &format!("--window-size={width},{height}"),
                &format!("--user-data-dir={}", dir.display()),
                "about:blank",
            ])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .unwrap_or_else(|error| {
                panic!(
                    "cannot start {} ({error}): install Debian's chromium (apt install chromium) \
                     or set TABULA_TEST_CHROMIUM",
                    program()
                )
            });
        let stderr = child.stderr.take().expect("the browser's standard error");
        let mut lines = tokio::io::BufReader::new(stderr).lines();
        let address = tokio::time::timeout(Duration::from_secs(30), async {
            while let Ok(Some(line)) = lines.next_line().await {
                if let Some(at) = line.find("ws://") {
                    return Some(line[at..].trim().to_string());
                }
            }
            None
        })
        .await
        .ok()
        .flatten()
        .expect("the browser says where its DevTools listen");
        // Keep reading its standard error, so that it never blocks on a full pipe.
        tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
        let host = address
            .trim_start_matches("ws://")
            .split('/')
            .next()
            .unwrap_or_default()
            .to_string();
        let stream = TcpStream::connect(&host).await.expect("the DevTools port");
        let (socket, _) = tokio_tungstenite::client_async(address.as_str(), stream)
            .await
            .expect("the DevTools WebSocket");
        let mut browser = Browser {
            child,
            socket,
            session: String::new(),
            next: 1,
            dir,
        };
        let target = browser
            .call("Target.createTarget", json!({"url": "about:blank"}))
            .await;
        let target = target["targetId"].as_str().unwrap_or_default().to_string();
        let attached = browser
            .call(
                "Target.attachToTarget",
                json!({"targetId": target, "flatten": true}),
            )
            .await;
        browser.session = attached["sessionId"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        for (method, params) in [
            ("Page.enable", json!({})),
            ("Runtime.enable", json!({})),
            (
                "Emulation.setDeviceMetricsOverride",
                json!({"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600}),
            ),
            (
                "Network.setExtraHTTPHeaders",
                json!({"headers": {"Accept-Language": language}}),
            ),
        ] {
            if method == "Network.setExtraHTTPHeaders" {
                browser.call("Network.enable", json!({})).await;
            }
            browser.call(method, params).await;
        }
        browser
    }

    /// Calls a DevTools method (on the page once attached) and returns its result.
    ///
    /// # Panics
    /// If the browser answers with an error or not at all.
    pub async fn call(&mut self, method: &str, params: Value) -> Value {
        let id = self.next;
        self.next += 1;
        let mut message = json!({"id": id, "method": method, "params": params});
        if !self.session.is_empty() {
            message["sessionId"] = json!(self.session);
        }
        self.socket
            .send(Message::Text(message.to_string()))
            .await
            .expect("the DevTools socket takes a call");
        let answer = tokio::time::timeout(Duration::from_secs(30), async {
            while let Some(Ok(frame)) = self.socket.next().await {
                let Message::Text(text) = frame else { continue };
                let Ok(value) = serde_json::from_str::<Value>(&text) else {
                    continue;
                };
                if value["id"] == json!(id) {
                    return Some(value);
                }
            }
            None
        })
        .await
        .ok()
        .flatten()
        .unwrap_or_else(|| panic!("{method}: no answer from the browser"));
        assert!(answer.get("error").is_none(), "{method}: {answer}");
        answer["result"].clone()
    }

    /// Opens `url` and waits until its document and script have loaded.
    pub async fn open(&mut self, url: &str) {
        self.call("Page.navigate", json!({"url": url})).await;
        self.wait_for(
            "document.readyState === 'complete'",
            Duration::from_secs(20),
        )
        .await;
    }

    /// The value of a JavaScript expression in the page (awaited when it is a promise).
    pub async fn eval(&mut self, expression: &str) -> Value {
        let result = self
            .call(
                "Runtime.evaluate",
                json!({"expression": expression, "returnByValue": true, "awaitPromise": true}),
            )
            .await;
        assert!(
            result.get("exceptionDetails").is_none(),
            "{expression}: {result}"
        );
        result["result"]["value"].clone()
    }

    /// Waits until `expression` is true in the page.
    ///
    /// # Panics
    /// If it is not within `timeout`.
    pub async fn wait_for(&mut self, expression: &str, timeout: Duration) {
        let deadline = std::time::Instant::now() + timeout;
        loop {
            if self.eval(expression).await == json!(true) {
                return;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "not true within {timeout:?}: {expression}"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Presses a key (`ArrowLeft`, `ArrowRight`...) on the page.
    pub async fn key(&mut self, key: &str, code: u32) {
        for kind in ["keyDown", "keyUp"] {
            self.call(
                "Input.dispatchKeyEvent",
                json!({"type": kind, "key": key, "code": key, "windowsVirtualKeyCode": code}),
            )
            .await;
        }
    }

    /// A screenshot of the page as PNG.
    pub async fn screenshot(&mut self) -> Vec<u8> {
        use base64::Engine as _;
        let shot = self
            .call("Page.captureScreenshot", json!({"format": "png"}))
            .await;
        base64::engine::general_purpose::STANDARD
            .decode(shot["data"].as_str().unwrap_or_default())
            .expect("the screenshot is base64")
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.start_kill();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

//! The real `tabula` binary as a user starts it: `tabula run` with environment variables, in
//! a folder of its own (so no `.env` of the developer's is read), its standard error kept for
//! the test to read, stopped by SIGTERM or killed with `kill -9`.

use std::path::{Path, PathBuf};
use std::process::{ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::io::AsyncBufReadExt;
use tokio::process::{Child, Command};

/// The variables `tabula run` reads; a started process gets only those the test sets.
const SETTINGS: [&str; 22] = [
    "DATABASE_URL",
    "TELEGRAM_BOT_TOKEN",
    "TELEGRAM_API_URL",
    "TELEGRAM_WEBHOOK_URL",
    "TELEGRAM_WEBHOOK_SECRET",
    "TELEGRAM_CHAT_MESSAGES_PER_SECOND",
    "TELEGRAM_GROUP_MESSAGES_PER_MINUTE",
    "TELEGRAM_MESSAGES_PER_SECOND",
    "TABULA_LISTEN",
    "TABULA_SCHEDULER_SECONDS",
    "TABULA_CHALLENGE_SECONDS",
    "TABULA_OUTBOX_LEASE_SECONDS",
    "TABULA_LOG",
    "TABULA_LOG_FORMAT",
    "TABULA_MIGRATE",
    "DISCORD_BOT_TOKEN",
    "DISCORD_APPLICATION_ID",
    "DISCORD_PUBLIC_KEY",
    "DISCORD_API_URL",
    "DISCORD_GUILD_ID",
    "DISCORD_SHARDS",
    "DISCORD_SHARD_COUNT",
];

/// The `tabula` binary of this build (`target/<profile>/tabula`), brought up to date first.
///
/// # Panics
/// If it cannot be found or built.
pub fn binary() -> PathBuf {
    let exe = std::env::current_exe().expect("the test's own path");
    // target/<profile>/deps/<test> → target/<profile>/tabula
    let profile_dir = exe
        .parent()
        .and_then(Path::parent)
        .expect("a test binary lives in target/<profile>/deps");
    let binary = profile_dir.join(format!("tabula{}", std::env::consts::EXE_SUFFIX));
    // Built (or found up to date) once per test process: a test run of this package alone
    // does not rebuild the bot, and an old binary would be tested in silence. The whole
    // workspace's test targets are named with it so that cargo resolves the same features as
    // `cargo test --workspace`, which has just built the binary: then this finds it up to date
    // instead of building every dependency again with the bot's own, narrower features.
    static BUILT: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    let built = BUILT.get_or_init(|| {
        let mut command = std::process::Command::new(env!("CARGO"));
        command.args([
            "build",
            "--quiet",
            "--workspace",
            "--tests",
            "--bin",
            "tabula",
        ]);
        // Not the variables cargo set for this test's run (`CARGO_MANIFEST_DIR`, `CARGO_PKG_*`,
        // ...): build scripts that watch them (ring's watches `CARGO_MANIFEST_DIR` and
        // `CARGO_PKG_*`) would see them changed from the outer build, and ring, rustls,
        // reqwest, serenity and the bot would be built again, here and by the next
        // `cargo test`, minutes each time.
        for (name, _) in std::env::vars_os() {
            let Some(name) = name.to_str() else {
                continue;
            };
            let set_for_tests = name.starts_with("CARGO_PKG_")
                || name.starts_with("CARGO_MANIFEST_")
                || name.starts_with("CARGO_BIN_")
                || matches!(
                    name,
                    "CARGO_CRATE_NAME"
                        | "CARGO_PRIMARY_PACKAGE"
                        | "CARGO_TARGET_TMPDIR"
                        | "CARGO_RUSTC_CURRENT_DIR"
                );
            if set_for_tests {
                command.env_remove(name);
            }
        }
        if profile_dir
            .file_name()
            .is_some_and(|name| name == "release")
        {
            command.arg("--release");
        }
        command.status().is_ok_and(|status| status.success())
    });
    assert!(*built, "cannot build the tabula binary");
    binary
}

/// A fresh empty folder for one test's files (database, working directory).
///
/// # Panics
/// If it cannot be made.
pub fn scratch_dir(name: &str) -> PathBuf {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let dir = std::env::temp_dir().join(format!(
        "tabula-test-{name}-{}-{nanos:x}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    dir
}

/// A free port on 127.0.0.1 (bound and released; another process may take it first, which
/// is unlikely enough for tests).
///
/// # Panics
/// If no port can be bound.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// A running `tabula` process.
#[derive(Debug)]
pub struct BotProcess {
    child: Child,
    log: Arc<Mutex<String>>,
    readers: Vec<tokio::task::JoinHandle<()>>,
}

impl BotProcess {
    /// Starts `tabula <args>` in `dir` with exactly the settings `env` (the developer's own
    /// `TELEGRAM_*`, `DATABASE_URL` ... are not passed on).
    ///
    /// # Panics
    /// If it cannot be started.
    pub fn start(dir: &Path, args: &[&str], env: &[(&str, String)]) -> BotProcess {
        let mut command = Command::new(binary());
        command
            .args(args)
            .current_dir(dir)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true);
        for name in SETTINGS {
            command.env_remove(name);
        }
        for (name, value) in env {
            command.env(name, value);
        }
        // Health and metrics are served in every mode: a port of its own unless the test
        // names one, so that bots running at once never share one.
        if !env.iter().any(|(name, _)| *name == "TABULA_LISTEN") {
            command.env("TABULA_LISTEN", "127.0.0.1:0");
        }
        let mut child = command.spawn().expect("tabula starts");
        let log = Arc::new(Mutex::new(String::new()));
        let mut readers = Vec::new();
        for stream in [
            child
                .stderr
                .take()
                .map(|s| Box::new(s) as Box<dyn tokio::io::AsyncRead + Send + Unpin>),
            child
                .stdout
                .take()
                .map(|s| Box::new(s) as Box<dyn tokio::io::AsyncRead + Send + Unpin>),
        ]
        .into_iter()
        .flatten()
        {
            let log = Arc::clone(&log);
            readers.push(tokio::spawn(async move {
                let mut lines = tokio::io::BufReader::new(stream).lines();
                while let Ok(Some(line)) = lines.next_line().await {
                    if std::env::var_os("TABULA_TEST_SHOW_LOGS").is_some() {
                        eprintln!("[tabula] {line}");
                    }
                    if let Ok(mut log) = log.lock() {
                        log.push_str(&line);
                        log.push('\n');
                    }
                }
            }));
        }
        BotProcess {
            child,
            log,
            readers,
        }
    }

    /// What the process printed so far (standard error and output).
    pub fn log(&self) -> String {
        self.log.lock().map(|l| l.clone()).unwrap_or_default()
    }

    /// Waits until the log contains `needle`.
    ///
    /// # Panics
    /// If it does not within `timeout`, or the process ends first.
    pub async fn wait_for_log(&mut self, needle: &str, timeout: Duration) {
        let deadline = Instant::now() + timeout;
        loop {
            if self.log().contains(needle) {
                return;
            }
            if let Ok(Some(status)) = self.child.try_wait() {
                tokio::time::sleep(Duration::from_millis(100)).await;
                panic!(
                    "tabula ended ({status}) before saying {needle:?}; it said:\n{}",
                    self.log()
                );
            }
            assert!(
                Instant::now() < deadline,
                "tabula did not say {needle:?} within {timeout:?}; it said:\n{}",
                self.log()
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Sends SIGTERM and waits for the exit.
    ///
    /// # Panics
    /// If it does not end within `timeout`.
    pub async fn terminate(&mut self, timeout: Duration) -> ExitStatus {
        self.signal("-TERM");
        self.wait(timeout).await
    }

    /// `kill -9`: the process dies at once, wherever it is.
    pub async fn kill9(&mut self) {
        self.signal("-KILL");
        let _ = self.wait(Duration::from_secs(10)).await;
    }

    /// Waits for the process to end.
    ///
    /// # Panics
    /// If it does not end within `timeout`.
    pub async fn wait(&mut self, timeout: Duration) -> ExitStatus {
        match tokio::time::timeout(timeout, self.child.wait()).await {
            Ok(Ok(status)) => {
                // The last lines it wrote are read before the status is given.
                for reader in self.readers.drain(..) {
                    let _ = tokio::time::timeout(Duration::from_secs(5), reader).await;
                }
                status
            }
            Ok(Err(error)) => panic!("cannot wait for tabula: {error}"),
            Err(_) => panic!(
                "tabula did not end within {timeout:?}; it said:\n{}",
                self.log()
            ),
        }
    }

    fn signal(&self, signal: &str) {
        if let Some(pid) = self.child.id() {
            let _ = std::process::Command::new("kill")
                .args([signal, &pid.to_string()])
                .status();
        }
    }
}

/// Runs `tabula verify` (the binary of this build) on a record's text, as a user would on the
/// file `/export` posted.
///
/// # Panics
/// If the file cannot be written or the binary not run.
pub fn tabula_verify(record: &str) -> std::process::Output {
    static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let path = std::env::temp_dir().join(format!("tabula-record-{}-{n}.txt", std::process::id()));
    std::fs::write(&path, record).expect("write the record");
    let output = std::process::Command::new(binary())
        .arg("verify")
        .arg(&path)
        .output()
        .expect("run tabula verify");
    let _ = std::fs::remove_file(&path);
    output
}

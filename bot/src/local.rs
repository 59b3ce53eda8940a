//! `tabula local`: a terminal front end of the service, for playing without Discord or
//! Telegram. Each input line is `<user>: <text>`, where text is a command (`/play konane @bob`)
//! or `#<n>` to press button n of the last message with buttons. Every reply is printed as text
//! with numbered buttons; pictures are written to a folder and their paths printed. There is
//! one chat, `local`, which is its own community (its settings and wallets); the users named
//! with `--moderator` moderate it. It reads stdin interactively or from a piped script. The
//! scheduler runs after every line: due reminders, time-outs and expired challenges are printed
//! then.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

use tabula_service::l10n::{Lang, Msg, Span};
use tabula_service::service::{
    Audience, Button, Clock, Input, Person, Placement, Reply, Request, Service, ServiceError,
    duration_msg, parse_duration, typed_mentions,
};
use tabula_service::store::Platform;

/// The username of the bot at the local table.
const LOCAL_BOT_NAME: &str = "tabula";

/// The one chat of `tabula local`.
pub const CHAT: &str = "local";

/// Why the session stopped.
#[derive(Debug, thiserror::Error)]
pub enum LocalError {
    /// Reading input or writing output failed.
    #[error("terminal input/output failed")]
    Io(#[from] std::io::Error),
}

/// A terminal session over a service.
#[derive(Debug)]
pub struct Session<'a> {
    service: &'a Service,
    images: Option<PathBuf>,
    moderators: Vec<String>,
    language: Option<tabula_service::l10n::Lang>,
    buttons: Vec<Button>,
    run: String,
    line: u64,
    pictures: u64,
    pictures_failed: bool,
}

impl<'a> Session<'a> {
    /// A session; pictures are written to `images` when given.
    pub fn new(service: &'a Service, images: Option<&Path>) -> Session<'a> {
        let run = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |elapsed| elapsed.as_nanos());
        Session {
            service,
            images: images.map(Path::to_path_buf),
            moderators: Vec::new(),
            language: None,
            buttons: Vec::new(),
            run: format!("{run:x}"),
            line: 0,
            pictures: 0,
            pictures_failed: false,
        }
    }

    /// The users who moderate the chat (may use `/config`, `/grant`, `/take`, `/abort`).
    #[must_use]
    pub fn with_moderators(mut self, moderators: Vec<String>) -> Session<'a> {
        self.moderators = moderators;
        self
    }

    /// The language the session speaks (`tabula local --language ru`): every person's
    /// locale, and the chat's unless its moderators chose one with `/config language=`.
    /// A person's own `/language` still comes first for what only they see.
    #[must_use]
    pub fn with_language(mut self, language: Option<tabula_service::l10n::Lang>) -> Session<'a> {
        self.language = language;
        self
    }

    /// Reads lines until the end of `input`, printing every reply to `output`. Internal
    /// failures of one request are printed and the session goes on.
    ///
    /// # Errors
    /// Reading, writing or saving a picture failed.
    pub async fn run(
        &mut self,
        input: impl BufRead,
        output: &mut impl Write,
    ) -> Result<(), LocalError> {
        for bytes in input.split(b'\n') {
            let bytes = bytes?;
            match std::str::from_utf8(&bytes) {
                Ok(line) => self.line(line, output).await?,
                Err(_) => {
                    // One bad line is refused; the session goes on.
                    self.line += 1;
                    let said = self.say(Msg::new("local-not-utf8").num("line", self.line as i64));
                    writeln!(output, "? {said}")?;
                }
            }
            output.flush()?;
        }
        Ok(())
    }

    /// Handles one input line.
    ///
    /// # Errors
    /// Writing or saving a picture failed.
    pub async fn line(&mut self, line: &str, output: &mut impl Write) -> Result<(), LocalError> {
        self.line += 1;
        let line = line.trim();
        if line.is_empty() || line.starts_with("//") {
            return Ok(());
        }
        let Some((user, text)) = line.split_once(':') else {
            writeln!(output, "? {}", self.say(Msg::new("local-line-form")))?;
            return Ok(());
        };
        let (user, text) = (user.trim(), text.trim());
        if user.is_empty() || user.contains(char::is_whitespace) {
            writeln!(output, "? {}", self.say(Msg::new("local-user-name")))?;
            return Ok(());
        }
        if let Some(rest) = text.strip_prefix("/wait") {
            return self.wait(rest.trim(), output).await;
        }
        let input = if let Some(number) = text.strip_prefix('#') {
            let Some(button) = number
                .parse::<usize>()
                .ok()
                .and_then(|n| n.checked_sub(1))
                .and_then(|n| self.buttons.get(n))
            else {
                let said = self.say(
                    Msg::new("local-no-button")
                        .text("number", number)
                        .count("buttons", self.buttons.len()),
                );
                writeln!(output, "? {said}")?;
                return Ok(());
            };
            let said = self.say(
                Msg::new("local-pressed")
                    .text("user", user)
                    .text("label", button.label.clone()),
            );
            writeln!(output, "({said})")?;
            Input::Button(button.data.clone())
        } else {
            Input::Command(text.to_string())
        };
        let pressed = matches!(input, Input::Button(_));
        // Every local name is also a username: `@bob` names whoever writes as bob, whether
        // or not bob has written yet.
        let mentions = match &input {
            Input::Command(text) => typed_mentions(text),
            Input::Button(_) => Vec::new(),
        };
        let mut request = Request::new(
            Platform::Local,
            (CHAT, "Local table"),
            Person::new(user, user).with_username(user),
            format!("{}-{}", self.run, self.line),
            input,
        );
        request.moderator = self.moderators.iter().any(|name| name == user);
        request.mentions = mentions;
        // The local bot's own name: `/help@tabula` is for it, `/help@otherbot` is not.
        request.bot_username = Some(LOCAL_BOT_NAME.to_string());
        request.locale = self.language.map(|lang| lang.code().to_string());
        request.chat_locale.clone_from(&request.locale);
        match self.service.handle(&request).await {
            Ok(Some(reply)) => {
                if reply.audience == Audience::Actor {
                    let said = self.say(Msg::new("local-only-sees").text("user", user));
                    writeln!(output, "({said})")?;
                } else if pressed && reply.placement == Placement::UpdatePressed {
                    writeln!(output, "({})", self.say(Msg::new("local-pressed-now")))?;
                }
                self.show(&reply, output)?;
            }
            Ok(None) => {}
            Err(error) => internal(&error, output)?,
        }
        self.tick(output).await
    }

    /// Runs the scheduler and shows what it says.
    async fn tick(&mut self, output: &mut impl Write) -> Result<(), LocalError> {
        match self.service.tick().await {
            Ok(replies) => {
                for reply in replies {
                    self.show(&reply, output)?;
                }
            }
            Err(error) => internal(&error, output)?,
        }
        Ok(())
    }

    /// `/wait <duration>` (local only): the session's clock moves on, and the scheduler runs,
    /// so that reminders and time-outs can be seen without waiting.
    async fn wait(&mut self, text: &str, output: &mut impl Write) -> Result<(), LocalError> {
        let Some(millis) = parse_duration(text).filter(|_| !text.is_empty()) else {
            writeln!(output, "? {}", self.say(Msg::new("local-wait-how-long")))?;
            return Ok(());
        };
        if !matches!(self.service.clock(), Clock::Offset(_) | Clock::Manual(_)) {
            writeln!(output, "? {}", self.say(Msg::new("local-clock-fixed")))?;
            return Ok(());
        }
        self.service.clock().advance(millis);
        let said = self.say(Msg::new("local-waited").msg("time", duration_msg(millis)));
        writeln!(output, "({said})")?;
        self.tick(output).await
    }

    /// A message of the catalogue in the session's language.
    fn say(&self, msg: Msg) -> String {
        terminal(&tabula_service::l10n::spans(
            self.language.unwrap_or(Lang::ENGLISH),
            &msg,
        ))
    }

    fn show(&mut self, reply: &Reply, output: &mut impl Write) -> Result<(), LocalError> {
        writeln!(output, "{}", terminal(&reply.spans))?;
        if let Some(png) = &reply.picture {
            match &self.images {
                Some(dir) => {
                    self.pictures += 1;
                    let path = dir.join(format!("{}-{:04}.png", self.run, self.pictures));
                    let written =
                        std::fs::create_dir_all(dir).and_then(|()| std::fs::write(&path, png));
                    match written {
                        Ok(()) => {
                            let said = self.say(
                                Msg::new("local-picture").text("path", path.display().to_string()),
                            );
                            writeln!(output, "  {said}")?;
                        }
                        Err(error) => {
                            // Said once; the session goes on without pictures.
                            writeln!(
                                output,
                                "! cannot write pictures to {}: {error}; going on without them",
                                dir.display()
                            )?;
                            self.images = None;
                            self.pictures_failed = true;
                        }
                    }
                }
                None if self.pictures_failed => {}
                None => writeln!(
                    output,
                    "  ({})",
                    self.say(Msg::new("local-picture-not-saved"))
                )?,
            }
        }
        if let Some(file) = &reply.file {
            // Into the pictures' folder, or the working directory without one.
            let dir = self.images.clone().unwrap_or_else(|| PathBuf::from("."));
            let path = dir.join(&file.name);
            let written =
                std::fs::create_dir_all(&dir).and_then(|()| std::fs::write(&path, &file.bytes));
            match written {
                Ok(()) => {
                    let said =
                        self.say(Msg::new("local-file").text("path", path.display().to_string()));
                    writeln!(output, "  {said}")?;
                }
                Err(error) => writeln!(output, "! cannot write {}: {error}", path.display())?,
            }
        }
        if !reply.buttons.is_empty() {
            self.buttons = reply.all_buttons().cloned().collect();
            let labels: Vec<String> = self
                .buttons
                .iter()
                .enumerate()
                .map(|(i, b)| format!("[#{}] {}", i + 1, b.label))
                .collect();
            for row in labels.chunks(6) {
                writeln!(output, "  {}", row.join("  "))?;
            }
        }
        Ok(())
    }
}

/// Prints an internal failure with its chain of causes (a database out of reach is said
/// plainly: the person may try again).
fn internal(error: &ServiceError, output: &mut impl Write) -> Result<(), LocalError> {
    if error.is_unavailable() {
        let lang = tabula_service::l10n::Lang::ENGLISH;
        writeln!(
            output,
            "! {}",
            tabula_service::l10n::text(lang, &tabula_service::l10n::Msg::new("unavailable"))
        )?;
    } else {
        writeln!(
            output,
            "! internal error: {}",
            tabula_service::service::error_chain(error)
        )?;
    }
    Ok(())
}

/// Spans as the terminal shows them: code between backticks, as Markdown writes it; the rest
/// as plain text.
fn terminal(spans: &[Span]) -> String {
    spans.iter().map(Span::marked).collect()
}

//! A web page for every game (issue 41), served on `tabula run`'s listener when the bot has a
//! public address (`TABULA_PUBLIC_URL`):
//!
//! - `GET /g/<token>`: the page, whole without its script: the game, its players, whose turn or
//!   the result, the board as inline SVG (drawn from the same scene as the PNG pictures), the
//!   position in text, the moves, the dice's commitment and, once over, the seed, the record
//!   and the replay.
//! - `GET /g/<token>/at/<n>`: the board after the first `n` actions, as SVG (the slider's).
//! - `GET /g/<token>/events`: server-sent events, `state` first with the game as it is, then
//!   again within a second of every stored change (a move, a takeback, the end, after which the
//!   stream ends). Each stream looks at its game's version every 0.4 s; the pages of one game
//!   share each state said; at most [`MAX_STREAMS`] are open at once. The page's script
//!   reconnects for as long as it is open.
//! - `GET /g/<token>/record.txt`, `/g/<token>/replay.gif`: `/export`'s file and `/replay`'s GIF.
//! - `GET /g/static/page.js`, `/g/static/page.css`.
//!
//! Pages are read-only. Every answer carries a strict Content-Security-Policy (scripts and
//! styles from the page's own address only, nothing inline). A token that is not one, names no
//! game, or whose community turned pages off is the same plain 404; tokens are looked up by
//! their SHA-256, so the lookup's time says nothing of which tokens exist. Every name a person
//! chose is written escaped.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use serde_json::json;
use tabula_service::service::{PageView, Service};
use tabula_service::store::GameNo;
use tokio_util::sync::CancellationToken;

/// The page's script and style sheet, served from the page's own address.
const SCRIPT: &str = include_str!("web/page.js");
const STYLE: &str = include_str!("web/page.css");

/// How often a live page's game is looked at.
const POLL: Duration = Duration::from_millis(400);

/// How long a browser waits before it reconnects a live page whose connection dropped.
const RECONNECT: Duration = Duration::from_secs(2);

/// How many live pages may be open at once; more are asked to come back later (503), which
/// their script does.
const MAX_STREAMS: usize = 1000;

/// How long a live page's state, once said, is kept for the other pages of its game.
const SHARED_FOR: Duration = Duration::from_secs(30);

/// How many states live pages share at most at once.
const SHARED_MOST: usize = 256;

/// How many polls between two looks at whether pages are still on.
const SETTING_EVERY: u32 = 10;

/// The Content-Security-Policy of every answer: the page's own script and styles, its own
/// requests, nothing else.
const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; \
                   connect-src 'self'; base-uri 'none'; form-action 'none'; \
                   frame-ancestors 'none'";

#[derive(Clone)]
struct Pages {
    service: Arc<Service>,
    shutdown: CancellationToken,
    /// One replay GIF made at a time, however many are asked for.
    gifs: Arc<tokio::sync::Semaphore>,
    /// The live pages open now, at most [`MAX_STREAMS`].
    streams: Arc<tokio::sync::Semaphore>,
    /// The states said lately, by game, version and language asked: the pages of one game
    /// open at once make each state once.
    said: Arc<std::sync::Mutex<SaidStates>>,
}

/// The states live pages were sent lately ([`Pages::said`]): when, the event's data, and
/// whether the game was still played.
type SaidStates = std::collections::HashMap<
    (GameNo, String, Option<String>),
    (std::time::Instant, Arc<str>, bool),
>;

/// The routes of the pages.
pub fn routes(service: Arc<Service>, shutdown: CancellationToken) -> axum::Router {
    use axum::routing::get;
    axum::Router::new()
        .route("/g/static/page.js", get(script))
        .route("/g/static/page.css", get(style))
        .route("/g/{token}", get(page))
        .route("/g/{token}/events", get(events))
        .route("/g/{token}/at/{n}", get(frame))
        .route("/g/{token}/record.txt", get(record))
        .route("/g/{token}/replay.gif", get(replay))
        .with_state(Pages {
            service,
            shutdown,
            gifs: Arc::new(tokio::sync::Semaphore::new(1)),
            streams: Arc::new(tokio::sync::Semaphore::new(MAX_STREAMS)),
            said: Arc::default(),
        })
}

/// The headers every answer carries.
fn secured(mut response: Response) -> Response {
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CSP),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    // The token is in the address: never sent on to another site.
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    response
}

/// The one answer for every page that is not there.
fn not_found() -> Response {
    secured((StatusCode::NOT_FOUND, "not found\n").into_response())
}

fn failed(error: &tabula_service::service::ServiceError) -> Response {
    tracing::error!(error = %tabula_service::service::error_chain(error), "a game's page failed");
    secured(
        (
            StatusCode::INTERNAL_SERVER_ERROR,
            "the page cannot be shown now\n",
        )
            .into_response(),
    )
}

async fn script() -> Response {
    secured(
        (
            [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
            SCRIPT,
        )
            .into_response(),
    )
}

async fn style() -> Response {
    secured(([(header::CONTENT_TYPE, "text/css; charset=utf-8")], STYLE).into_response())
}

fn accept_language(headers: &HeaderMap) -> Option<String> {
    headers
        .get(header::ACCEPT_LANGUAGE)
        .and_then(|value| value.to_str().ok())
        .map(str::to_string)
}

/// The game of `token`, or the answer when its page is not to be shown (404).
async fn shown(pages: &Pages, token: &str) -> Result<GameNo, Response> {
    match game_of(pages, token).await {
        Ok(Some(game)) => Ok(game),
        Ok(None) => Err(not_found()),
        Err(response) => Err(response),
    }
}

/// The game of `token`, when its page is to be shown.
async fn game_of(pages: &Pages, token: &str) -> Result<Option<GameNo>, Response> {
    pages
        .service
        .game_of_page(token)
        .await
        .map_err(|error| failed(&error))
}

async fn page(
    State(pages): State<Pages>,
    Path(token): Path<String>,
    headers: HeaderMap,
) -> Response {
    let game = match shown(&pages, &token).await {
        Ok(game) => game,
        Err(response) => return response,
    };
    let accept = accept_language(&headers);
    let (view, board) = match now(&pages, game, accept.as_deref()).await {
        Ok(Some(now)) => now,
        Ok(None) => return not_found(),
        Err(response) => return response,
    };
    secured(
        (
            [
                (header::CONTENT_TYPE, "text/html; charset=utf-8"),
                (header::CACHE_CONTROL, "no-store"),
                (header::VARY, "Accept-Language"),
            ],
            html(&token, &view, &board),
        )
            .into_response(),
    )
}

/// What `game`'s page shows now, and its board as SVG.
async fn now(
    pages: &Pages,
    game: GameNo,
    accept: Option<&str>,
) -> Result<Option<(PageView, String)>, Response> {
    let (view, scene) = match pages.service.page_now(game, accept).await {
        Ok(Some(now)) => now,
        Ok(None) => return Ok(None),
        Err(error) => return Err(failed(&error)),
    };
    Ok(Some((view, drawn(scene).await?)))
}

/// `scene` as SVG, drawn off the async threads.
async fn drawn(scene: tabula_render::scene::Scene) -> Result<String, Response> {
    match tokio::task::spawn_blocking(move || tabula_render::svg(&scene)).await {
        Ok(drawn) => {
            drawn.map_err(|error| failed(&tabula_service::service::ServiceError::from(error)))
        }
        Err(error) => {
            tracing::error!(%error, "drawing a game's page failed");
            Err(secured(StatusCode::INTERNAL_SERVER_ERROR.into_response()))
        }
    }
}

/// The board of `game` after `at` actions, as SVG.
async fn board_svg(
    pages: &Pages,
    game: GameNo,
    at: u32,
    accept: Option<&str>,
) -> Result<Option<String>, Response> {
    let scene = match pages.service.page_scene(game, at, accept).await {
        Ok(Some(scene)) => scene,
        Ok(None) => return Ok(None),
        Err(error) => return Err(failed(&error)),
    };
    drawn(scene).await.map(Some)
}

async fn frame(
    State(pages): State<Pages>,
    Path((token, n)): Path<(String, String)>,
    headers: HeaderMap,
) -> Response {
    let Ok(n) = n.parse::<u32>() else {
        return not_found();
    };
    let game = match shown(&pages, &token).await {
        Ok(game) => game,
        Err(response) => return response,
    };
    let accept = accept_language(&headers);
    match board_svg(&pages, game, n, accept.as_deref()).await {
        Ok(Some(svg)) => secured(
            (
                [
                    (header::CONTENT_TYPE, "image/svg+xml; charset=utf-8"),
                    // The page asks with the game's version in the address (`?v=`): a
                    // takeback changes it.
                    (header::CACHE_CONTROL, "private, max-age=60"),
                    (header::VARY, "Accept-Language"),
                ],
                svg,
            )
                .into_response(),
        ),
        Ok(None) => not_found(),
        Err(response) => response,
    }
}

async fn record(State(pages): State<Pages>, Path(token): Path<String>) -> Response {
    let game = match shown(&pages, &token).await {
        Ok(game) => game,
        Err(response) => return response,
    };
    match pages.service.page_record(game).await {
        Ok(Some(text)) => secured(
            (
                [
                    (
                        header::CONTENT_TYPE,
                        "text/plain; charset=utf-8".to_string(),
                    ),
                    (
                        header::CONTENT_DISPOSITION,
                        format!("attachment; filename=\"tabula-game-{game}.txt\""),
                    ),
                ],
                text,
            )
                .into_response(),
        ),
        Ok(None) => not_found(),
        Err(error) => failed(&error),
    }
}

async fn replay(
    State(pages): State<Pages>,
    Path(token): Path<String>,
    headers: HeaderMap,
) -> Response {
    let game = match shown(&pages, &token).await {
        Ok(game) => game,
        Err(response) => return response,
    };
    let accept = accept_language(&headers);
    let Ok(_one_at_a_time) = pages.gifs.acquire().await else {
        return not_found();
    };
    match pages.service.page_replay(game, accept.as_deref()).await {
        Ok(Some(gif)) => secured(([(header::CONTENT_TYPE, "image/gif")], gif).into_response()),
        Ok(None) => not_found(),
        Err(error) => failed(&error),
    }
}

/// The state a live page is sent: what changes with a move; `version` is the game's
/// ([`Service::page_version`]). With it, whether the game is still played.
async fn state_event(
    pages: &Pages,
    game: GameNo,
    version: &str,
    accept: Option<&str>,
) -> Result<Option<(Event, bool)>, Response> {
    let key = (game, version.to_string(), accept.map(str::to_string));
    let shared = pages
        .said
        .lock()
        .ok()
        .and_then(|said| said.get(&key).cloned());
    if let Some((_, data, active)) = shared {
        return Ok(Some((
            Event::default()
                .event("state")
                .retry(RECONNECT)
                .data(data.as_ref()),
            active,
        )));
    }
    let Some((view, board)) = now(pages, game, accept).await? else {
        return Ok(None);
    };
    let moves: Vec<serde_json::Value> = view
        .moves
        .iter()
        .map(|m| json!({"seq": m.seq, "text": m.text, "by": m.by}))
        .collect();
    let data = json!({
        "version": version,
        "seq": view.seq,
        "active": view.active,
        "status": view.status,
        "moves": moves,
        "board": board,
        "position": view.position,
        "words": view.position_words,
        "seed": view.seed,
    });
    let data: Arc<str> = Arc::from(data.to_string());
    if let Ok(mut said) = pages.said.lock() {
        let now = std::time::Instant::now();
        said.retain(|_, (at, _, _)| now.duration_since(*at) < SHARED_FOR);
        // Bounded, whatever languages browsers ask for.
        if said.len() < SHARED_MOST {
            said.insert(key, (now, data.clone(), view.active));
        }
    }
    Ok(Some((
        Event::default()
            .event("state")
            .retry(RECONNECT)
            .data(data.as_ref()),
        view.active,
    )))
}

/// What the live stream remembers between polls.
struct Live {
    pages: Pages,
    game: GameNo,
    token: String,
    accept: Option<String>,
    /// The version of the game last sent.
    sent: Option<String>,
    polls: u32,
    /// The game's end was sent: nothing more will come.
    over: bool,
    /// Its place among the live pages, given back when it ends.
    _open: tokio::sync::OwnedSemaphorePermit,
}

async fn events(
    State(pages): State<Pages>,
    Path(token): Path<String>,
    headers: HeaderMap,
) -> Response {
    let game = match shown(&pages, &token).await {
        Ok(game) => game,
        Err(response) => return response,
    };
    let Ok(open) = pages.streams.clone().try_acquire_owned() else {
        tracing::warn!("{MAX_STREAMS} live pages are open: another is asked to come back later");
        return secured(
            (
                StatusCode::SERVICE_UNAVAILABLE,
                [(header::RETRY_AFTER, "30")],
                "too many live pages now\n",
            )
                .into_response(),
        );
    };
    let live = Live {
        pages,
        game,
        token,
        accept: accept_language(&headers),
        sent: None,
        polls: 0,
        over: false,
        _open: open,
    };
    let stream = futures_util::stream::unfold(live, |mut live| async move {
        if live.over {
            return None;
        }
        loop {
            if live.sent.is_some() {
                if !pause(&live.pages.shutdown).await {
                    return None;
                }
                live.polls += 1;
                // Pages turned off, or the game gone: the stream ends (the page says so).
                if live.polls.is_multiple_of(SETTING_EVERY)
                    && !matches!(game_of(&live.pages, &live.token).await, Ok(Some(_)))
                {
                    return None;
                }
            }
            let version = match live.pages.service.page_version(live.game).await {
                Ok(Some(version)) => version,
                Ok(None) => return None,
                Err(error) => {
                    tracing::warn!(error = %tabula_service::service::error_chain(&error), "a live page cannot read its game");
                    // Not at once again: the next poll, or the end at shutdown.
                    if live.sent.is_none() && !pause(&live.pages.shutdown).await {
                        return None;
                    }
                    continue;
                }
            };
            if live.sent.as_deref() == Some(version.as_str()) {
                continue;
            }
            match state_event(&live.pages, live.game, &version, live.accept.as_deref()).await {
                Ok(Some((event, active))) => {
                    live.sent = Some(version);
                    live.over = !active;
                    return Some((Ok::<Event, Infallible>(event), live));
                }
                Ok(None) | Err(_) => return None,
            }
        }
    });
    secured(
        (
            [
                (header::CACHE_CONTROL, "no-store"),
                // A proxy in front (nginx) passes each event on at once.
                (header::HeaderName::from_static("x-accel-buffering"), "no"),
            ],
            Sse::new(stream).keep_alive(KeepAlive::new().interval(Duration::from_secs(15))),
        )
            .into_response(),
    )
}

/// Waits for the next poll of a live page: false when the bot shuts down first.
async fn pause(shutdown: &CancellationToken) -> bool {
    tokio::select! {
        () = shutdown.cancelled() => false,
        () = tokio::time::sleep(POLL) => true,
    }
}

/// Text escaped for HTML (content and quoted attributes).
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The page's HTML.
fn html(token: &str, view: &PageView, board: &str) -> String {
    use std::fmt::Write as _;
    let word = |id: &str| escape(view.word(id));
    let token = escape(token);
    let mut players = String::new();
    for player in &view.players {
        let _ = write!(players, "<li>{}</li>", escape(player));
    }
    let mut moves = String::new();
    for m in &view.moves {
        let by = m.by.as_ref().map_or_else(String::new, |by| {
            format!("<span class=\"by\"> — {}</span>", escape(by))
        });
        let _ = write!(
            moves,
            "<li value=\"{seq}\" data-seq=\"{seq}\">{}{by}</li>",
            escape(&m.text),
            seq = m.seq
        );
    }
    let no_moves = format!(
        "<p id=\"no-moves\"{}>{}</p>",
        if view.moves.is_empty() { "" } else { " hidden" },
        word("page-no-moves")
    );
    let dice = match &view.commitment {
        None => String::new(),
        Some(commitment) => {
            let seed = match &view.seed {
                Some(seed) => format!(
                    "<dt>{}</dt><dd><code id=\"seed\">{}</code></dd>",
                    word("page-seed"),
                    escape(seed)
                ),
                None => format!(
                    "<dt>{}</dt><dd id=\"seed\">{}</dd>",
                    word("page-seed"),
                    word("page-seed-later")
                ),
            };
            format!(
                "<section aria-labelledby=\"dice-h\"><h2 id=\"dice-h\">{}</h2><dl><dt>SHA-256</dt>\
                 <dd><code>{}</code></dd>{seed}</dl></section>",
                word("page-dice"),
                escape(commitment)
            )
        }
    };
    // Shown once the game is over (the script shows them when it ends while the page is open).
    let files = format!(
        "<p id=\"files\"{}><a href=\"{token}/record.txt\">{}</a> · <a href=\"{token}/replay.gif\">{}</a></p>",
        if view.active { " hidden" } else { "" },
        word("page-record"),
        word("page-replay")
    );
    let live = if view.active {
        format!(
            "<p id=\"live\" data-live=\"{live}\" data-offline=\"{offline}\">{live}</p>",
            live = word("page-live"),
            offline = word("page-offline")
        )
    } else {
        "<p id=\"live\" data-live=\"\" data-offline=\"\"></p>".to_string()
    };
    format!(
        "<!doctype html>\n<html lang=\"{lang}\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"color-scheme\" content=\"light dark\">\n\
         <meta name=\"referrer\" content=\"no-referrer\">\n\
         <title>{title}</title>\n<link rel=\"stylesheet\" href=\"static/page.css\">\n\
         <script src=\"static/page.js\" defer></script>\n</head>\n\
         <body data-token=\"{token}\" data-seq=\"{seq}\" data-version=\"{version}\" data-active=\"{active}\">\n<main>\n\
         <header><h1>{title}</h1><p id=\"status\" role=\"status\" aria-live=\"polite\">{status}</p>{live}</header>\n\
         <section class=\"board-area\" aria-labelledby=\"board-h\"><h2 id=\"board-h\">{board_word}</h2>\n\
         <figure id=\"board\" aria-labelledby=\"board-h\" aria-describedby=\"position-said\">{board}</figure>\n\
         <p id=\"position-said\" class=\"said\">{position_words}</p>\n\
         <div class=\"steps\"><label for=\"step\">{step_word}</label>\
         <input type=\"range\" id=\"step\" min=\"0\" max=\"{seq}\" value=\"{seq}\" step=\"1\">\
         <output id=\"step-at\" for=\"step\">{seq} / {seq}</output></div>\n\
         <details><summary>{position_word}</summary><pre id=\"position\">{position}</pre></details>\n\
         </section>\n<aside>\n<section aria-labelledby=\"players-h\"><h2 id=\"players-h\">{players_word}</h2>\
         <ul id=\"players\">{players}</ul></section>\n\
         <section aria-labelledby=\"moves-h\"><h2 id=\"moves-h\">{moves_word}</h2>{no_moves}\
         <ol id=\"moves\">{moves}</ol></section>\n{dice}\n{files}\n</aside>\n</main>\n</body>\n</html>\n",
        lang = escape(view.lang.code()),
        version = escape(&view.version),
        title = escape(&view.title),
        seq = view.seq,
        active = view.active,
        status = escape(&view.status),
        board_word = word("page-board"),
        step_word = word("page-step"),
        position_word = word("page-position-text"),
        position = escape(&view.position),
        // One side after another, as a screen reader says them.
        position_words = escape(&view.position_words.replace('\n', "; ")),
        players_word = word("page-players"),
        moves_word = word("page-moves"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_text_never_markup() {
        assert_eq!(
            escape("<script>alert(\"x\")</script> & 'y'"),
            "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;"
        );
    }

    #[test]
    fn the_policy_allows_nothing_inline_and_no_wildcard() {
        assert!(!CSP.contains('*') && !CSP.contains("unsafe"));
        assert!(CSP.contains("script-src 'self'") && CSP.contains("default-src 'none'"));
    }
}

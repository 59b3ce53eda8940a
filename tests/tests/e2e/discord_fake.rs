//! Self-tests of the fake Discord REST API and interactions, with real serenity and reqwest.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::Bytes;
use axum::http::{HeaderMap, StatusCode};
use serde_json::{Value, json};
use serenity::all::{ChannelId, CreateAttachment, Interaction, InteractionId, UserId};
use serenity::http::{Http, HttpBuilder, HttpError};
use serenity::interactions_endpoint::Verifier;
use tabula_tests::discord::{
    DEFAULT_MEMBER_PERMISSIONS, DcChannel, DcUser, Ended, Failure, FakeDiscord, Via,
};

const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x02\0\0\0\x90wS\xde";

fn http(fake: &FakeDiscord) -> Http {
    HttpBuilder::new(fake.token())
        .proxy(fake.api_url())
        .ratelimiter_disabled(true)
        .application_id(fake.application_id().into())
        .build()
}

/// An interactions endpoint for the tests: verifies signatures with serenity's verifier,
/// deserializes every payload into serenity's `Interaction`, answers per interaction type.
struct Endpoint {
    url: String,
    seen: Arc<Mutex<Vec<Value>>>,
    /// The answer to commands and components (`Null`: answer 500).
    answer: Arc<Mutex<Value>>,
    problems: Arc<Mutex<Vec<String>>>,
}

async fn endpoint(public_key: &str) -> Endpoint {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("the test's setup");
    let url = format!(
        "http://{}/interactions",
        listener.local_addr().expect("the test's setup")
    );
    let seen = Arc::new(Mutex::new(Vec::new()));
    let answer = Arc::new(Mutex::new(json!({"type": 5})));
    let problems = Arc::new(Mutex::new(Vec::new()));
    let verifier = Arc::new(Verifier::new(public_key));
    let (s2, a2, p2) = (seen.clone(), answer.clone(), problems.clone());
    let app = axum::Router::new().route(
        "/interactions",
        axum::routing::post(move |headers: HeaderMap, body: Bytes| {
            let (seen, answer, problems, verifier) =
                (s2.clone(), a2.clone(), p2.clone(), verifier.clone());
            async move {
                let h = |k: &str| {
                    headers
                        .get(k)
                        .and_then(|v| v.to_str().ok())
                        .unwrap_or_default()
                        .to_owned()
                };
                if verifier
                    .verify(
                        &h("x-signature-ed25519"),
                        &h("x-signature-timestamp"),
                        &body,
                    )
                    .is_err()
                {
                    return (
                        StatusCode::UNAUTHORIZED,
                        [("content-type", "text/plain".to_owned())],
                        b"invalid request signature".to_vec(),
                    );
                }
                let v: Value = serde_json::from_slice(&body).expect("the test's setup");
                if let Err(e) = serde_json::from_value::<Interaction>(v.clone()) {
                    problems
                        .lock()
                        .expect("lock")
                        .push(format!("serenity cannot read {v}: {e}"));
                }
                seen.lock().expect("lock").push(v.clone());
                let reply = match v["type"].as_u64() {
                    Some(1) => json!({"type": 1}),
                    Some(4) => json!({"type": 8, "data": {"choices": [
                        {"name": "Konane", "value": "konane"},
                        {"name": "Go", "value": "go"},
                    ]}}),
                    _ => answer.lock().expect("lock").clone(),
                };
                if reply.is_null() {
                    return (
                        StatusCode::INTERNAL_SERVER_ERROR,
                        [("content-type", "text/plain".to_owned())],
                        b"no".to_vec(),
                    );
                }
                // `{"multipart": payload}`: the answer with a PNG as `files[0]`.
                if let Some(payload) = reply.get("multipart") {
                    let mut body = Vec::new();
                    body.extend_from_slice(
                        format!(
                            "--XyZ\r\nContent-Disposition: form-data; name=\"payload_json\"\r\n\r\n{payload}\r\n--XyZ\r\nContent-Disposition: form-data; name=\"files[0]\"; filename=\"board.png\"\r\nContent-Type: image/png\r\n\r\n"
                        )
                        .as_bytes(),
                    );
                    body.extend_from_slice(PNG);
                    body.extend_from_slice(b"\r\n--XyZ--\r\n");
                    return (
                        StatusCode::OK,
                        [("content-type", "multipart/form-data; boundary=XyZ".to_owned())],
                        body,
                    );
                }
                (
                    StatusCode::OK,
                    [("content-type", "application/json".to_owned())],
                    reply.to_string().into_bytes(),
                )
            }
        }),
    );
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    Endpoint {
        url,
        seen,
        answer,
        problems,
    }
}

fn commands() -> Value {
    json!([
        {"name": "play", "description": "Start a game", "type": 1, "options": [
            {"type": 3, "name": "game", "description": "Which game", "required": true,
             "choices": [{"name": "Konane", "value": "konane"}, {"name": "Go", "value": "go"}]},
            {"type": 6, "name": "opponent", "description": "Whom to play", "required": false},
            {"type": 4, "name": "minutes", "description": "Time", "min_value": 1, "max_value": 60},
        ]},
        {"name": "find", "description": "Find a game", "options": [
            {"type": 3, "name": "name", "description": "Name", "required": true, "autocomplete": true},
        ]},
        {"name": "admin", "description": "Settings", "default_member_permissions": "32"},
    ])
}

struct World {
    fake: FakeDiscord,
    http: Http,
    channel: DcChannel,
    alice: DcUser,
    bob: DcUser,
}

async fn world() -> World {
    let fake = FakeDiscord::start().await.expect("the test's setup");
    let http = http(&fake);
    let guild = fake.guild("Club");
    let channel = fake.text_channel(&guild, "games");
    let alice = fake.user("Alice");
    let bob = fake.user("Bob");
    fake.join(&guild, &alice, DEFAULT_MEMBER_PERMISSIONS);
    fake.join(&guild, &bob, DEFAULT_MEMBER_PERMISSIONS);
    http.create_global_commands(&commands())
        .await
        .expect("the test's setup");
    World {
        fake,
        http,
        channel,
        alice,
        bob,
    }
}

fn assert_clean(fake: &FakeDiscord) {
    assert!(fake.violations().is_empty(), "{:#?}", fake.violations());
    assert!(
        fake.self_check_failures().is_empty(),
        "{:#?}",
        fake.self_check_failures()
    );
}

#[tokio::test]
async fn serenity_rest_calls_are_accepted() {
    let w = world().await;
    let (fake, http) = (&w.fake, &w.http);
    assert_eq!(fake.public_key_hex().len(), 64);
    let gw = http.get_gateway().await.unwrap();
    assert_eq!(gw.url, fake.gateway().url());
    let bot_gw = http.get_bot_gateway().await.unwrap();
    assert_eq!(bot_gw.shards, 1);
    let me = http.get_current_user().await.unwrap();
    assert_eq!(me.id.get(), fake.bot_user_id());
    let app = http.get_current_application_info().await.unwrap();
    assert_eq!(app.id.get(), fake.application_id());
    assert_eq!(fake.commands(None).len(), 3);
    assert_eq!(fake.command_overwrites(), 1);
    let client = reqwest::Client::new();
    let r = client
        .get(format!("{}/api/v10/applications/@me", fake.api_url()))
        .header("Authorization", format!("Bot {}", fake.token()))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let r = client
        .post(format!(
            "{}/api/v10/channels/{}/messages",
            fake.api_url(),
            w.channel.id
        ))
        .header("Authorization", format!("Bot {}", fake.token()))
        .json(&json!({"content": "hello"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.headers()["x-ratelimit-limit"], "5");
    assert_eq!(r.headers()["x-ratelimit-remaining"], "4");
    let listed = http.get_global_commands().await.unwrap();
    assert_eq!(listed.len(), 3);
    let guild_id = w.channel.guild_id.unwrap();
    let guild = http.get_guild(guild_id.into()).await.unwrap();
    assert_eq!(guild.name, "Club");
    let channel = http
        .get_channel(ChannelId::new(w.channel.id))
        .await
        .unwrap();
    assert_eq!(channel.id().get(), w.channel.id);
    let dm = fake.dm_channel(&w.bob);
    let dm_json = http.get_channel(ChannelId::new(dm.id)).await.unwrap();
    assert!(dm_json.private().is_some());
    http.create_guild_commands(
        guild_id.into(),
        &json!([{"name": "local", "description": "Here only"}]),
    )
    .await
    .unwrap();
    assert_eq!(fake.commands(Some(guild_id)).len(), 1);
    assert_eq!(fake.command_overwrites(), 2);
    let sent = http
        .send_message(
            ChannelId::new(w.channel.id),
            vec![CreateAttachment::bytes(PNG, "board.png")],
            &json!({"content": format!("<@{}> your move", w.alice.id),
                    "embeds": [{"title": "Board", "image": {"url": "attachment://board.png"}}],
                    "components": [{"type": 1, "components": [
                        {"type": 2, "style": 1, "label": "Resign", "custom_id": "resign"}]}]}),
        )
        .await
        .unwrap();
    let m = fake.message(sent.id.get()).unwrap();
    assert!(m.image_attachment().unwrap().is_png());
    assert_eq!(m.notified, vec![w.alice.id]);
    assert_eq!(m.buttons(), vec![("Resign".into(), "resign".into(), false)]);
    let edited = http
        .edit_message(
            ChannelId::new(w.channel.id),
            sent.id,
            &json!({"content": "edited"}),
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(edited.content, "edited");
    assert!(fake.message(sent.id.get()).unwrap().attachments.len() == 1);
    assert_clean(fake);
}

#[tokio::test]
async fn dms_are_opened_by_create_dm_and_refused_when_closed() {
    let w = world().await;
    let (fake, http) = (&w.fake, &w.http);
    let dm = UserId::new(w.bob.id).create_dm_channel(http).await.unwrap();
    assert_eq!(dm.id.get(), fake.dm_channel(&w.bob).id);
    assert_eq!(dm.recipient.id.get(), w.bob.id);
    let again = http
        .create_private_channel(&json!({"recipient_id": w.bob.id.to_string()}))
        .await
        .unwrap();
    assert_eq!(again.id, dm.id);
    assert!(fake.dm_messages(&w.alice).is_empty());
    http.send_message(dm.id, vec![], &json!({"content": "your move"}))
        .await
        .unwrap();
    let sent = fake.dm_messages(&w.bob);
    assert_eq!(sent.len(), 1);
    assert_eq!(sent[0].content, "your move");
    assert_eq!(sent[0].channel_id, dm.id.get());

    fake.close_dms(&w.bob);
    // Opening the channel still works; posting in it does not.
    http.create_private_channel(&json!({"recipient_id": w.bob.id}))
        .await
        .unwrap();
    let refused = http
        .send_message(dm.id, vec![], &json!({"content": "are you there?"}))
        .await;
    let Err(serenity::Error::Http(HttpError::UnsuccessfulRequest(e))) = refused else {
        panic!("{refused:?}")
    };
    assert_eq!((e.status_code.as_u16(), e.error.code), (403, 50007));
    assert_eq!(e.error.message, "Cannot send messages to this user");
    assert_eq!(fake.refused().len(), 1);
    assert_eq!(fake.dm_messages(&w.bob).len(), 1);
    fake.open_dms(&w.bob);
    http.send_message(dm.id, vec![], &json!({"content": "back"}))
        .await
        .unwrap();
    assert_eq!(fake.dm_messages(&w.bob).len(), 2);
    assert_clean(fake);

    // A person Discord does not know.
    let unknown = http
        .create_private_channel(&json!({"recipient_id": "1100000000000000077"}))
        .await;
    let Err(serenity::Error::Http(HttpError::UnsuccessfulRequest(e))) = unknown else {
        panic!("{unknown:?}")
    };
    assert_eq!((e.status_code.as_u16(), e.error.code), (404, 10013));
    assert_eq!(fake.violations().len(), 1);
    assert!(fake.self_check_failures().is_empty());
}

#[tokio::test]
async fn bad_requests_are_refused_in_discords_shape() {
    let w = world().await;
    let fake = &w.fake;
    let client = reqwest::Client::new();
    let guild = fake.guild("Many channels");
    // Refused requests count against the channel's rate limit too: a fresh channel for each.
    let post = |body: Value, auth: &str| {
        let channel = fake.text_channel(&guild, "c");
        client
            .post(format!(
                "{}/api/v10/channels/{}/messages",
                fake.api_url(),
                channel.id
            ))
            .header("Authorization", auth.to_owned())
            .json(&body)
            .send()
    };
    let auth = format!("Bot {}", fake.token());
    let r = post(json!({"content": "x"}), "Bot wrong").await.unwrap();
    assert_eq!(r.status(), 401);
    let r = post(json!({"content": "x".repeat(2001)}), &auth)
        .await
        .unwrap();
    assert_eq!(r.status(), 400);
    assert_eq!(r.json::<Value>().await.unwrap()["code"], 50035);
    let r = post(json!({}), &auth).await.unwrap();
    assert_eq!(r.json::<Value>().await.unwrap()["code"], 50006);
    let r = post(json!({"content": 5}), &auth).await.unwrap();
    assert_eq!(r.json::<Value>().await.unwrap()["code"], 50035);
    let dup = json!({"content": "x", "components": [{"type": 1, "components": [
        {"type": 2, "style": 1, "label": "A", "custom_id": "a"},
        {"type": 2, "style": 1, "label": "B", "custom_id": "a"}]}]});
    let r = post(dup, &auth).await.unwrap();
    assert_eq!(r.json::<Value>().await.unwrap()["code"], 50035);
    let r = post(
        json!({"content": "x", "embeds": [{"image": {"url": "attachment://nope.png"}}]}),
        &auth,
    )
    .await
    .unwrap();
    assert_eq!(r.status(), 400);
    let r = post(
        json!({"content": "x", "allowed_mentions": {"parse": ["users"], "users": ["1"]}}),
        &auth,
    )
    .await
    .unwrap();
    assert_eq!(r.status(), 400);
    let r = client
        .get(format!("{}/api/v10/no/such/route", fake.api_url()))
        .header("Authorization", &auth)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 404);
    let r = client
        .delete(format!("{}/api/v10/gateway", fake.api_url()))
        .header("Authorization", &auth)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 405);
    // Bad command definitions.
    let put_commands = |commands: Value| {
        client
            .put(format!(
                "{}/api/v10/applications/{}/commands",
                fake.api_url(),
                fake.application_id()
            ))
            .header("Authorization", &auth)
            .json(&commands)
            .send()
    };
    let r = put_commands(json!([{"name": "Bad Name", "description": "x"},
                      {"name": "ok", "description": "x", "options": [
                          {"type": 3, "name": "a", "description": "a"},
                          {"type": 3, "name": "b", "description": "b", "required": true}]}]))
    .await
    .unwrap();
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["code"], 50035, "{body}");
    assert!(body["errors"]["0"]["name"].is_object(), "{body}");
    assert!(
        body["errors"]["1"]["options"]["1"]["required"].is_object(),
        "{body}"
    );
    // Localizations: Discord's locales only, and its lengths.
    let r = put_commands(json!([{"name": "ok", "description": "x",
                       "description_localizations": {"ru": "д", "xx": "y"},
                       "options": [{"type": 3, "name": "g", "description": "g",
                                    "choices": [{"name": "a", "value": "a",
                                                 "name_localizations": {"en": "A"}}]}]}]))
    .await
    .unwrap();
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["code"], 50035, "{body}");
    let localized = &body["errors"]["0"]["description_localizations"];
    assert!(localized["xx"].is_object(), "an unknown locale: {body}");
    assert!(localized["ru"].is_null(), "ru is a locale: {body}");
    assert!(
        body["errors"]["0"]["options"]["0"]["choices"]["0"]["name_localizations"]["en"].is_object(),
        "en is no Discord locale (en-US and en-GB are): {body}"
    );
    let refused = fake.violations().len();
    assert_eq!(refused, 11, "{:#?}", fake.violations());
    // Platform state: deleted channel and missing access are refusals, not violations.
    let other = fake.text_channel(&fake.guild("Other"), "gone");
    fake.remove_access(&w.channel);
    let r = client
        .post(format!(
            "{}/api/v10/channels/{}/messages",
            fake.api_url(),
            w.channel.id
        ))
        .header("Authorization", &auth)
        .json(&json!({"content": "x"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.json::<Value>().await.unwrap()["code"], 50001);
    fake.delete_channel(&other);
    let r = client
        .get(format!("{}/api/v10/channels/{}", fake.api_url(), other.id))
        .header("Authorization", &auth)
        .send()
        .await
        .unwrap();
    assert_eq!(r.json::<Value>().await.unwrap()["code"], 10003);
    assert_eq!(fake.violations().len(), refused);
    assert!(fake.self_check_failures().is_empty());
}

#[tokio::test]
async fn channel_messages_are_rate_limited() {
    let w = world().await;
    let fake = &w.fake;
    let mut statuses = Vec::new();
    for i in 0..6 {
        let r = w
            .http
            .send_message(
                ChannelId::new(w.channel.id),
                vec![],
                &json!({"content": format!("{i}")}),
            )
            .await;
        statuses.push(r.is_ok());
    }
    assert_eq!(statuses, [true, true, true, true, true, false]);
    assert_eq!(fake.rate_limited().len(), 1);
    assert_eq!(fake.rate_limited()[0].ended, Ended::Refused);
    fake.fail_next(
        "POST",
        "/messages",
        Failure::Status(500, 0, "500: Internal Server Error".into()),
    );
    let other = fake.text_channel(&fake.guild("G2"), "c");
    let r = w
        .http
        .send_message(ChannelId::new(other.id), vec![], &json!({"content": "x"}))
        .await;
    assert!(r.is_err());
    assert_eq!(fake.requests().last().unwrap().ended, Ended::Injected);
    assert_clean(fake);
}

#[tokio::test]
async fn interactions_over_http_answered_and_followed_up() {
    let w = world().await;
    let (fake, http) = (&w.fake, &w.http);
    let ep = endpoint(&fake.public_key_hex()).await;
    let (status, body) = fake.ping_endpoint(&ep.url).await;
    assert_eq!((status, body.as_str()), (200, r#"{"type":1}"#));
    let ts = "1700000000";
    let (status, _) = fake
        .post_raw(
            &ep.url,
            &[
                ("X-Signature-Ed25519", &fake.sign_with_other_key(ts, "{}")),
                ("X-Signature-Timestamp", ts),
            ],
            "{}",
        )
        .await;
    assert_eq!(status, 401);
    fake.deliver_over_http(&ep.url);

    // A deferred command completed with a PNG.
    let id = fake
        .slash(
            &w.channel,
            &w.alice,
            "play",
            &[("game", json!("konane")), ("opponent", json!(w.bob.id))],
        )
        .await
        .unwrap();
    let rec = fake
        .interactions()
        .into_iter()
        .find(|i| i.id == id)
        .unwrap();
    assert_eq!(rec.initial.map(|i| (i.0, i.3)), Some((5, Via::HttpBody)));
    assert_eq!(fake.incomplete_deferrals().len(), 1);
    let payload = ep.seen.lock().unwrap().last().unwrap().clone();
    let token = payload["token"].as_str().unwrap().to_owned();
    assert_eq!(
        payload["data"]["resolved"]["users"][w.bob.id.to_string()]["id"],
        json!(w.bob.id.to_string())
    );
    let msg = http
        .edit_original_interaction_response(
            &token,
            &json!({"content": format!("<@{}>, your move", w.bob.id),
                    "embeds": [{"image": {"url": "attachment://board.png"}}],
                    "components": [{"type": 1, "components": [
                        {"type": 2, "style": 1, "label": "Accept", "custom_id": "accept"}]}]}),
            vec![CreateAttachment::bytes(PNG, "board.png")],
        )
        .await
        .unwrap();
    assert!(fake.incomplete_deferrals().is_empty());
    let m = fake.message(msg.id.get()).unwrap();
    assert!(m.image_attachment().is_some_and(|a| a.is_png()));
    assert_eq!(m.notified, vec![w.bob.id]);
    assert!(!m.edited);
    let f = http
        .create_followup_message(&token, &json!({"content": "only you", "flags": 64}), vec![])
        .await
        .unwrap();
    assert_eq!(
        fake.message(f.id.get()).unwrap().ephemeral_for,
        Some(w.alice.id)
    );
    // A second acknowledgement is refused.
    let again = http
        .create_interaction_response(InteractionId::new(id), &token, &json!({"type": 5}), vec![])
        .await;
    assert!(again.is_err());
    assert_eq!(fake.violations().len(), 1);
    assert!(fake.violations()[0].body_summary.contains("40060"));

    // Bob presses Accept (answered with 6: @original is the button's message).
    *ep.answer.lock().unwrap() = json!({"type": 6});
    assert!(fake.press(&w.channel, &w.bob, m.id, "nope").await.is_err());
    let pid = fake
        .press(&w.channel, &w.bob, m.id, "accept")
        .await
        .unwrap();
    let ptoken = ep.seen.lock().unwrap().last().unwrap()["token"]
        .as_str()
        .unwrap()
        .to_owned();
    let edited = http
        .edit_original_interaction_response(&ptoken, &json!({"components": []}), vec![])
        .await
        .unwrap();
    assert_eq!(edited.id.get(), m.id);
    assert!(fake.message(m.id).unwrap().buttons().is_empty());
    assert!(
        fake.interactions()
            .iter()
            .any(|i| i.id == pid && i.initial.is_some())
    );
    // Nobody sees Alice's ephemeral followup but Alice.
    assert!(
        fake.press(&w.channel, &w.bob, f.id.get(), "x")
            .await
            .is_err()
    );

    // Autocomplete, the client's checks, a DM.
    let choices = fake
        .autocomplete(
            &w.channel,
            &w.alice,
            "find",
            &[("name", json!("ko"))],
            "name",
        )
        .await
        .unwrap();
    assert_eq!(choices[0], ("Konane".to_owned(), json!("konane")));
    assert!(fake.slash(&w.channel, &w.alice, "nope", &[]).await.is_err());
    assert!(fake.slash(&w.channel, &w.alice, "play", &[]).await.is_err());
    assert!(
        fake.slash(&w.channel, &w.alice, "play", &[("game", json!("chess"))])
            .await
            .is_err()
    );
    assert!(
        fake.slash(
            &w.channel,
            &w.alice,
            "play",
            &[("game", json!("go")), ("minutes", json!(99))]
        )
        .await
        .is_err()
    );
    assert!(
        fake.slash(&w.channel, &w.alice, "admin", &[])
            .await
            .is_err()
    );
    *ep.answer.lock().unwrap() = json!({"multipart": {"type": 4, "data": {
        "content": "hello", "flags": 64,
        "attachments": [{"id": 0, "filename": "board.png"}],
        "embeds": [{"image": {"url": "attachment://board.png"}}]}}});
    let dm = fake.dm_channel(&w.alice);
    fake.slash(&dm, &w.alice, "play", &[("game", json!("go"))])
        .await
        .unwrap();
    let reply = fake.messages(&dm).pop().unwrap();
    assert_eq!(reply.ephemeral_for, Some(w.alice.id));
    assert!(reply.image_attachment().is_some_and(|a| a.is_png()));
    assert!(fake.newest_bot_message(&dm, |_| true).is_none());

    assert!(
        ep.problems.lock().unwrap().is_empty(),
        "{:#?}",
        ep.problems.lock().unwrap()
    );
    assert_eq!(ep.seen.lock().unwrap().len(), 5);
    assert!(
        fake.unacknowledged().is_empty(),
        "{:#?}",
        fake.unacknowledged()
    );
    assert_eq!(fake.violations().len(), 1, "{:#?}", fake.violations());
    assert!(
        fake.self_check_failures().is_empty(),
        "{:#?}",
        fake.self_check_failures()
    );
}

#[tokio::test]
async fn late_and_wrong_acknowledgements_are_refused() {
    let w = world().await;
    let (fake, http) = (&w.fake, &w.http);
    let ep = endpoint(&fake.public_key_hex()).await;
    *ep.answer.lock().unwrap() = Value::Null; // the endpoint fails: the bot answers by REST
    fake.deliver_over_http(&ep.url);
    fake.set_interaction_deadlines(Duration::from_millis(1000), Duration::from_millis(2000));
    let token_of = |ep: &Endpoint| {
        ep.seen.lock().unwrap().last().unwrap()["token"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    // Webhook routes before the initial response: Unknown Webhook.
    let id = fake
        .slash(&w.channel, &w.alice, "play", &[("game", json!("go"))])
        .await
        .unwrap();
    let token = token_of(&ep);
    let early = http
        .create_followup_message(&token, &json!({"content": "x"}), vec![])
        .await;
    assert!(format!("{early:?}").contains("10015"), "{early:?}");
    // 6 is for components only.
    let wrong = http
        .create_interaction_response(InteractionId::new(id), &token, &json!({"type": 6}), vec![])
        .await;
    assert!(wrong.is_err());
    http.create_interaction_response(
        InteractionId::new(id),
        &token,
        &json!({"type": 4, "data": {"content": "hi"}}),
        vec![],
    )
    .await
    .unwrap();
    assert_eq!(fake.unacknowledged().len(), 0);
    // Too late.
    let late_id = fake
        .slash(&w.channel, &w.alice, "play", &[("game", json!("go"))])
        .await
        .unwrap();
    let late_token = token_of(&ep);
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let late = http
        .create_interaction_response(
            InteractionId::new(late_id),
            &late_token,
            &json!({"type": 5}),
            vec![],
        )
        .await;
    assert!(format!("{late:?}").contains("10062"), "{late:?}");
    assert_eq!(fake.unacknowledged().len(), 1);
    // The token expires.
    tokio::time::sleep(Duration::from_millis(1000)).await;
    let expired = http
        .create_followup_message(&token, &json!({"content": "x"}), vec![])
        .await;
    assert!(format!("{expired:?}").contains("50027"), "{expired:?}");
    let codes: Vec<String> = fake
        .violations()
        .iter()
        .map(|r| r.body_summary.clone())
        .collect();
    // Two failed endpoint answers, 10015, wrong type, 10062.
    assert_eq!(codes.len(), 5, "{codes:#?}");
    assert!(
        fake.self_check_failures().is_empty(),
        "{:#?}",
        fake.self_check_failures()
    );
}

#[test]
fn signatures_verify_with_serenity() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let fake = rt.block_on(FakeDiscord::start()).unwrap();
    let v = Verifier::new(&fake.public_key_hex());
    let body = r#"{"type":1}"#;
    assert!(
        v.verify(&fake.sign("123", body), "123", body.as_bytes())
            .is_ok()
    );
    assert!(
        v.verify(
            &fake.sign_with_other_key("123", body),
            "123",
            body.as_bytes()
        )
        .is_err()
    );
    assert!(
        v.verify(&fake.sign("124", body), "123", body.as_bytes())
            .is_err()
    );
}

#[tokio::test]
async fn global_limit_and_gateway_delivery_without_a_session() {
    let w = world().await;
    let fake = &w.fake;
    let client = reqwest::Client::new();
    let requests = (0..60).map(|_| {
        client
            .get(format!("{}/api/v10/users/@me", fake.api_url()))
            .header("Authorization", format!("Bot {}", fake.token()))
            .send()
    });
    let statuses: Vec<(u16, bool)> = futures_util::future::join_all(requests)
        .await
        .into_iter()
        .map(|r| {
            let r = r.unwrap();
            (
                r.status().as_u16(),
                r.headers().get("x-ratelimit-global").is_some(),
            )
        })
        .collect();
    // At most 50 bot requests a second (the world's command registration was one of them).
    assert!(
        statuses.iter().filter(|s| s.0 == 200).count() <= 49,
        "{statuses:?}"
    );
    assert!(statuses.contains(&(429, true)), "{statuses:?}");
    assert!(!fake.rate_limited().is_empty());
    // Over the gateway with no session: the interaction is not delivered.
    let r = fake
        .slash(&w.channel, &w.alice, "play", &[("game", json!("go"))])
        .await;
    assert!(r.is_err());
    assert!(fake.interactions().is_empty());
    assert!(fake.violations().is_empty());
}

struct Bot;

#[serenity::async_trait]
impl serenity::all::EventHandler for Bot {
    async fn interaction_create(&self, ctx: serenity::all::Context, interaction: Interaction) {
        use serenity::all::{
            CreateActionRow, CreateButton, CreateInteractionResponse,
            CreateInteractionResponseMessage,
        };
        match interaction {
            Interaction::Command(c) => {
                let msg = CreateInteractionResponseMessage::new()
                    .content(format!("{} starts", c.user.name))
                    .components(vec![CreateActionRow::Buttons(vec![
                        CreateButton::new("accept").label("Accept"),
                    ])]);
                let _ = c
                    .create_response(&ctx.http, CreateInteractionResponse::Message(msg))
                    .await;
            }
            Interaction::Component(c) => {
                let msg = CreateInteractionResponseMessage::new()
                    .content("accepted")
                    .components(vec![]);
                let _ = c
                    .create_response(&ctx.http, CreateInteractionResponse::UpdateMessage(msg))
                    .await;
            }
            _ => {}
        }
    }
}

#[tokio::test]
async fn a_serenity_bot_over_the_gateway() {
    let w = world().await;
    let fake = &w.fake;
    let mut client = serenity::all::ClientBuilder::new_with_http(
        http(fake),
        serenity::all::GatewayIntents::empty(),
    )
    .event_handler(Bot)
    .await
    .unwrap();
    let running = tokio::spawn(async move { client.start().await });
    fake.gateway()
        .wait_for_ready(1, Duration::from_secs(5))
        .await
        .unwrap();
    fake.slash(&w.channel, &w.alice, "play", &[("game", json!("go"))])
        .await
        .unwrap();
    let wait = Duration::from_secs(5);
    let board = fake
        .wait_for(wait, |f| {
            f.newest_bot_message(&w.channel, |m| !m.buttons().is_empty())
        })
        .await
        .unwrap();
    assert_eq!(board.content, "alice starts");
    fake.press(&w.channel, &w.bob, board.id, "accept")
        .await
        .unwrap();
    fake.wait_for(wait, |f| {
        f.message(board.id)
            .filter(|m| m.content == "accepted" && m.buttons().is_empty())
    })
    .await
    .unwrap();
    let kinds: Vec<Option<u8>> = fake
        .interactions()
        .iter()
        .map(|i| i.initial.map(|x| x.0))
        .collect();
    assert_eq!(kinds, [Some(4), Some(7)]);
    assert!(fake.gateway().violations().is_empty());
    assert_clean(fake);
    running.abort();
}

#[tokio::test]
async fn a_webhook_call_made_before_the_http_answer_is_read_waits_for_it() {
    let w = world().await;
    let fake = w.fake.clone();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/i", listener.local_addr().unwrap());
    let api = fake.api_url();
    let patched = Arc::new(Mutex::new(None));
    let p2 = patched.clone();
    let app = axum::Router::new().route(
        "/i",
        axum::routing::post(move |body: Bytes| {
            let (api, patched) = (api.clone(), p2.clone());
            async move {
                let v: Value = serde_json::from_slice(&body).unwrap();
                let token = v["token"].as_str().unwrap().to_owned();
                // The bot completes the deferred message before its answer has left.
                tokio::spawn(async move {
                    let r = reqwest::Client::new()
                        .patch(format!(
                            "{api}/api/v10/webhooks/{}/{token}/messages/@original",
                            v["application_id"].as_str().unwrap()
                        ))
                        .json(&json!({"content": "done"}))
                        .send()
                        .await
                        .unwrap();
                    *patched.lock().unwrap() = Some(r.status().as_u16());
                });
                tokio::time::sleep(Duration::from_millis(150)).await;
                (
                    [("content-type", "application/json")],
                    json!({"type": 5}).to_string(),
                )
            }
        }),
    );
    tokio::spawn(async move { axum::serve(listener, app).await });
    fake.deliver_over_http(&url);
    fake.slash(&w.channel, &w.alice, "play", &[("game", json!("go"))])
        .await
        .unwrap();
    let status = fake
        .wait_for(Duration::from_secs(5), |_| *patched.lock().unwrap())
        .await
        .unwrap();
    assert_eq!(status, 200);
    assert!(fake.incomplete_deferrals().is_empty());
    assert!(
        fake.newest_bot_message(&w.channel, |m| m.content == "done")
            .is_some()
    );
    assert_clean(&fake);
}

/// The status and Discord error code of a refused serenity call.
fn refusal<T: std::fmt::Debug>(r: serenity::Result<T>) -> (u16, isize) {
    let Err(serenity::Error::Http(HttpError::UnsuccessfulRequest(e))) = r else {
        panic!("not refused: {r:?}")
    };
    (e.status_code.as_u16(), e.error.code)
}

#[tokio::test]
async fn threads_are_started_posted_in_archived_and_used() {
    use serenity::all::{AutoArchiveDuration, Channel, ChannelType, CreateThread, EditThread};
    use tabula_tests::discord::{
        CREATE_PUBLIC_THREADS, DEFAULT_BOT_PERMISSIONS, MANAGE_THREADS, SEND_MESSAGES_IN_THREADS,
    };
    let w = world().await;
    let (fake, http) = (&w.fake, &w.http);
    let parent = ChannelId::new(w.channel.id);
    let game = || {
        CreateThread::new("Konane: Alice vs Bob")
            .kind(ChannelType::PublicThread)
            .auto_archive_duration(AutoArchiveDuration::OneDay)
    };

    // Without CREATE_PUBLIC_THREADS in the channel: 403 50013, refused (not the bot's fault).
    fake.set_bot_channel_permissions(&w.channel, DEFAULT_BOT_PERMISSIONS & !CREATE_PUBLIC_THREADS);
    assert_eq!(
        refusal(parent.create_thread(http, game()).await),
        (403, 50013)
    );
    assert_eq!(fake.refused().len(), 1);
    assert!(fake.threads(&w.channel).is_empty());
    fake.set_bot_channel_permissions(&w.channel, DEFAULT_BOT_PERMISSIONS);

    // Start Thread without Message: 201 and the thread channel object.
    let t = parent.create_thread(http, game()).await.unwrap();
    assert_eq!(t.kind, ChannelType::PublicThread);
    assert_eq!(t.parent_id, Some(parent));
    assert_eq!(t.guild_id.get(), w.channel.guild_id.unwrap());
    assert_eq!(t.owner_id.map(|u| u.get()), Some(fake.bot_user_id()));
    assert_eq!(t.name, "Konane: Alice vs Bob");
    let meta = t.thread_metadata.unwrap();
    assert!(!meta.archived && !meta.locked);
    assert_eq!(meta.auto_archive_duration, AutoArchiveDuration::OneDay);
    assert!(meta.archive_timestamp.is_some());
    assert_eq!((t.message_count, t.member_count), (Some(0), Some(1)));
    let listed = fake.threads(&w.channel);
    assert_eq!(listed.len(), 1);
    let thread = listed[0].channel.clone();
    assert_eq!(thread.id, t.id.get());
    assert_eq!(
        (listed[0].kind, listed[0].owner_id, listed[0].parent_id),
        (11, fake.bot_user_id(), w.channel.id)
    );
    assert!(!listed[0].archived && !listed[0].locked);
    // The raw answer: 201, and a private thread when `type` is left out (Discord's default).
    let raw = reqwest::Client::new()
        .post(format!(
            "{}/api/v10/channels/{}/threads",
            fake.api_url(),
            w.channel.id
        ))
        .header("Authorization", format!("Bot {}", fake.token()))
        .json(&json!({"name": "notes"}))
        .send()
        .await
        .unwrap();
    assert_eq!(raw.status(), 201);
    let body: Value = raw.json().await.unwrap();
    assert_eq!(body["type"], 12);
    assert_eq!(body["thread_metadata"]["auto_archive_duration"], 1440);
    assert_eq!(body["total_message_sent"], 0);
    assert_eq!(fake.threads(&w.channel).len(), 2);
    // GET /channels/{thread} is the thread.
    let Channel::Guild(got) = http.get_channel(t.id).await.unwrap() else {
        panic!("not a guild channel")
    };
    assert_eq!(
        (got.kind, got.parent_id),
        (ChannelType::PublicThread, Some(parent))
    );

    // Posting needs SEND_MESSAGES_IN_THREADS, not SEND_MESSAGES.
    fake.set_bot_channel_permissions(
        &w.channel,
        DEFAULT_BOT_PERMISSIONS & !SEND_MESSAGES_IN_THREADS,
    );
    assert_eq!(
        refusal(
            http.send_message(t.id, vec![], &json!({"content": "hi"}))
                .await
        ),
        (403, 50013)
    );
    http.send_message(parent, vec![], &json!({"content": "the parent is fine"}))
        .await
        .unwrap();
    fake.set_bot_channel_permissions(&w.channel, DEFAULT_BOT_PERMISSIONS);
    let board = http
        .send_message(
            t.id,
            vec![],
            &json!({"content": "board", "components": [{"type": 1, "components": [
                {"type": 2, "style": 1, "label": "Resign", "custom_id": "resign"}]}]}),
        )
        .await
        .unwrap();
    assert_eq!(fake.messages(&thread).len(), 1);
    http.edit_message(t.id, board.id, &json!({"content": "board 2"}), vec![])
        .await
        .unwrap();

    // A slash command and a button press from inside the thread, over HTTP.
    let ep = endpoint(&fake.public_key_hex()).await;
    fake.deliver_over_http(&ep.url);
    fake.slash(&thread, &w.alice, "play", &[("game", json!("go"))])
        .await
        .unwrap();
    let payload = ep.seen.lock().unwrap().last().unwrap().clone();
    assert_eq!(payload["channel_id"], json!(thread.id.to_string()));
    assert_eq!(
        payload["guild_id"],
        json!(w.channel.guild_id.unwrap().to_string())
    );
    assert_eq!(payload["channel"]["type"], 11);
    assert_eq!(
        payload["channel"]["parent_id"],
        json!(w.channel.id.to_string())
    );
    assert_eq!(payload["channel"]["thread_metadata"]["archived"], false);
    assert_eq!(
        payload["app_permissions"],
        json!(DEFAULT_BOT_PERMISSIONS.to_string())
    );
    let Interaction::Command(cmd) = serde_json::from_value::<Interaction>(payload.clone()).unwrap()
    else {
        panic!("not a command")
    };
    let ch = cmd.channel.unwrap();
    assert_eq!(
        (ch.kind, ch.parent_id),
        (ChannelType::PublicThread, Some(parent))
    );
    let token = payload["token"].as_str().unwrap().to_owned();
    http.edit_original_interaction_response(&token, &json!({"content": "your move"}), vec![])
        .await
        .unwrap();
    assert!(
        fake.newest_bot_message(&thread, |m| m.content == "your move")
            .is_some()
    );
    fake.press(&thread, &w.bob, board.id.get(), "resign")
        .await
        .unwrap();
    let pressed = ep.seen.lock().unwrap().last().unwrap().clone();
    assert_eq!(pressed["channel"]["type"], 11);
    assert_eq!(
        pressed["message"]["channel_id"],
        json!(thread.id.to_string())
    );

    // The bot (the thread's creator) archives it by PATCH; people cannot use it then, messages
    // cannot be edited, and a new message unarchives it.
    let archived =
        t.id.edit_thread(http, EditThread::new().archived(true))
            .await
            .unwrap();
    assert!(archived.thread_metadata.unwrap().archived);
    assert!(fake.thread(&thread).unwrap().archived);
    assert!(
        fake.slash(&thread, &w.alice, "play", &[("game", json!("go"))])
            .await
            .is_err()
    );
    assert_eq!(
        refusal(
            http.edit_message(t.id, board.id, &json!({"content": "x"}), vec![])
                .await
        ),
        (400, 50083)
    );
    assert_eq!(
        refusal(
            t.id.edit_thread(http, EditThread::new().name("renamed"))
                .await
        ),
        (400, 50083)
    );
    http.send_message(t.id, vec![], &json!({"content": "still here"}))
        .await
        .unwrap();
    assert!(!fake.thread(&thread).unwrap().archived);

    // Locking needs MANAGE_THREADS; a locked thread refuses the bot's messages without it.
    assert_eq!(
        refusal(t.id.edit_thread(http, EditThread::new().locked(true)).await),
        (403, 50013)
    );
    fake.set_bot_channel_permissions(&thread, DEFAULT_BOT_PERMISSIONS | MANAGE_THREADS);
    let locked =
        t.id.edit_thread(http, EditThread::new().locked(true).archived(true))
            .await
            .unwrap();
    assert!(
        locked
            .thread_metadata
            .is_some_and(|m| m.locked && m.archived)
    );
    fake.set_bot_channel_permissions(&w.channel, DEFAULT_BOT_PERMISSIONS);
    assert_eq!(
        refusal(
            http.send_message(t.id, vec![], &json!({"content": "let me in"}))
                .await
        ),
        (403, 50083)
    );
    assert_eq!(
        refusal(
            t.id.edit_thread(http, EditThread::new().archived(false))
                .await
        ),
        (403, 50013)
    );
    let th = fake.thread(&thread).unwrap();
    assert!(th.archived && th.locked);
    assert_eq!(
        fake.messages(&thread)
            .iter()
            .filter(|m| m.content == "let me in")
            .count(),
        0
    );
    assert!(
        ep.problems.lock().unwrap().is_empty(),
        "{:#?}",
        ep.problems.lock().unwrap()
    );
    assert_clean(fake);

    // What is wrong whatever the permissions: a thread under a DM or a thread, a type of an
    // announcement channel, a duration Discord does not offer.
    let dm = fake.dm_channel(&w.bob);
    assert_eq!(
        refusal(ChannelId::new(dm.id).create_thread(http, game()).await),
        (400, 50003)
    );
    assert_eq!(
        refusal(t.id.create_thread(http, game()).await),
        (400, 50024)
    );
    assert_eq!(
        refusal(
            http.create_thread(parent, &json!({"name": "x", "type": 10}), None)
                .await
        ),
        (400, 50035)
    );
    assert_eq!(
        refusal(
            http.create_thread(
                parent,
                &json!({"name": "x", "auto_archive_duration": 30}),
                None
            )
            .await
        ),
        (400, 50035)
    );
    assert_eq!(fake.violations().len(), 4, "{:#?}", fake.violations());
    assert_eq!(fake.threads(&w.channel).len(), 2);
    assert!(
        fake.self_check_failures().is_empty(),
        "{:#?}",
        fake.self_check_failures()
    );
}

#[tokio::test]
async fn bot_permissions_of_a_guild_and_a_deleted_parent() {
    use serenity::all::{ChannelType, CreateThread};
    use tabula_tests::discord::{DEFAULT_BOT_PERMISSIONS, DcGuild, SEND_MESSAGES, VIEW_CHANNEL};
    let w = world().await;
    let (fake, http) = (&w.fake, &w.http);
    let guild = DcGuild {
        id: w.channel.guild_id.unwrap(),
        name: "Club".into(),
    };
    assert_eq!(fake.bot_permissions(&w.channel), DEFAULT_BOT_PERMISSIONS);
    // The guild's permissions hold in every channel without its own.
    fake.set_bot_permissions(&guild, DEFAULT_BOT_PERMISSIONS & !SEND_MESSAGES);
    assert_eq!(
        refusal(
            http.send_message(
                ChannelId::new(w.channel.id),
                vec![],
                &json!({"content": "hi"})
            )
            .await
        ),
        (403, 50013)
    );
    fake.set_bot_permissions(&guild, DEFAULT_BOT_PERMISSIONS & !VIEW_CHANNEL);
    assert_eq!(
        refusal(http.get_channel(ChannelId::new(w.channel.id)).await),
        (403, 50001)
    );
    fake.set_bot_permissions(&guild, DEFAULT_BOT_PERMISSIONS);
    let t = ChannelId::new(w.channel.id)
        .create_thread(
            http,
            CreateThread::new("game").kind(ChannelType::PublicThread),
        )
        .await
        .unwrap();
    // Deleting the parent deletes its threads.
    fake.delete_channel(&w.channel);
    assert_eq!(
        refusal(
            http.send_message(t.id, vec![], &json!({"content": "hi"}))
                .await
        ),
        (404, 10003)
    );
    assert!(fake.threads(&w.channel).is_empty());
    assert_eq!(fake.refused().len(), 3);
    assert_clean(fake);
}

#[tokio::test]
async fn a_serenity_bot_answers_in_a_thread_over_the_gateway() {
    use serenity::all::{ChannelType, CreateThread};
    let w = world().await;
    let fake = &w.fake;
    let t = ChannelId::new(w.channel.id)
        .create_thread(
            &w.http,
            CreateThread::new("game").kind(ChannelType::PublicThread),
        )
        .await
        .unwrap();
    let thread = fake.threads(&w.channel).remove(0).channel;
    assert_eq!(thread.id, t.id.get());
    let mut client = serenity::all::ClientBuilder::new_with_http(
        http(fake),
        serenity::all::GatewayIntents::empty(),
    )
    .event_handler(Bot)
    .await
    .unwrap();
    let running = tokio::spawn(async move { client.start().await });
    fake.gateway()
        .wait_for_ready(1, Duration::from_secs(5))
        .await
        .unwrap();
    fake.slash(&thread, &w.alice, "play", &[("game", json!("go"))])
        .await
        .unwrap();
    let wait = Duration::from_secs(5);
    let board = fake
        .wait_for(wait, |f| {
            f.newest_bot_message(&thread, |m| !m.buttons().is_empty())
        })
        .await
        .unwrap();
    assert_eq!(board.channel_id, thread.id);
    fake.press(&thread, &w.bob, board.id, "accept")
        .await
        .unwrap();
    fake.wait_for(wait, |f| {
        f.message(board.id).filter(|m| m.content == "accepted")
    })
    .await
    .unwrap();
    assert!(fake.messages(&w.channel).is_empty());
    assert!(fake.gateway().violations().is_empty());
    assert_clean(fake);
    running.abort();
}

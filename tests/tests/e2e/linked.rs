//! One person on both platforms (issue 38), end to end: one `tabula run` serves a Telegram
//! supergroup and a Discord channel (both fakes); Alice plays on each, asks for a code on
//! Discord (shown to her alone), types it in her private chat with the Telegram bot, and then
//! `/mygames` on either platform lists both games with a link to each board on its platform.

use std::time::Duration;

use tabula_tests::discord_table::{self, Mode, challenge_in};
use tabula_tests::said;
use tabula_tests::table::ANSWER;
use tabula_tests::telegram_table::{self, callbacks, is_photo};

/// The one-time code in a `link-code` message: the word of six capitals and digits.
fn code_in(text: &str) -> String {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .find(|word| {
            word.len() == 6
                && word
                    .chars()
                    .all(|c| c.is_ascii_uppercase() || ('2'..='9').contains(&c))
                && word.chars().any(|c| c.is_ascii_digit())
        })
        .or_else(|| {
            text.split(|c: char| !c.is_ascii_alphanumeric())
                .find(|word| word.len() == 6 && word.chars().all(|c| c.is_ascii_uppercase()))
        })
        .unwrap_or_else(|| panic!("no code in {text}"))
        .to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_linked_person_sees_the_games_of_both_platforms() {
    let telegram = telegram_table::Table::new("linked-tg").await;
    let mut discord = discord_table::Table::new("linked", Mode::Http).await;
    for (name, value) in &telegram.env {
        if name.starts_with("TELEGRAM_") {
            discord.set(name, value.clone());
        }
    }
    discord.start().await;
    let tg = telegram.fake.clone();

    // A game on Telegram: Alice and Bob in a supergroup.
    let group = tg.supergroup("Club", false);
    let (alice_tg, bob_tg) = (telegram.person("Alice"), telegram.person("Bob"));
    for person in [&alice_tg, &bob_tg] {
        tg.add_member(&group, person);
    }
    tg.user_writes(&group, &alice_tg, "/play konane @bob_tg");
    let offer = telegram
        .wait_new(&group, 0, "the challenge", |m| !callbacks(m).is_empty())
        .await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    tg.user_writes(&group, &bob_tg, "/accept");
    telegram
        .wait_new(&group, offer.message_id, "the Telegram board", is_photo)
        .await;

    // A game on Discord: Alice and Carol in the server's channel.
    let channel = discord.platform.channel.clone();
    let guild = discord.platform.guild.id;
    let (alice_dc, carol_dc) = (discord.person("Alice"), discord.person("Carol"));
    challenge_in(&discord, &channel, &alice_dc, &carol_dc, "koan").await;

    // Alice asks for a code on Discord: shown to her alone.
    let before = discord.last_id();
    discord.slash(&alice_dc, "link", &[]).await;
    let offered = discord
        .wait_message(before, "the code", |m| {
            m.ephemeral_for == Some(alice_dc.id) && said::says(&m.content, "link-code")
        })
        .await;
    let code = code_in(&offered.content);

    // She types it to the Telegram bot in her private chat: linked.
    tg.user_starts_bot(&alice_tg);
    let private = tg.private_chat(&alice_tg);
    tg.user_writes(&private, &alice_tg, &format!("/link {code}"));
    telegram_table::wait_private(&tg, &alice_tg, "link-done", ANSWER).await;

    // `/mygames` in that private chat: both games, each linked on its platform.
    tg.user_writes(&private, &alice_tg, "/mygames");
    let inbox = telegram_table::wait_private(&tg, &alice_tg, "mygames-heading", ANSWER).await;
    let links = telegram_table::link_urls(&inbox);
    let group_id = group.id.to_string();
    let telegram_prefix = format!("https://t.me/c/{}/", group_id.trim_start_matches("-100"));
    let discord_prefix = format!("https://discord.com/channels/{guild}/{}/", channel.id);
    assert_eq!(links.len(), 2, "{links:?}");
    assert!(
        links.iter().any(|l| l.starts_with(&telegram_prefix)),
        "{links:?}"
    );
    assert!(
        links.iter().any(|l| l.starts_with(&discord_prefix)),
        "{links:?}"
    );

    // And on Discord, shown to her alone, the same two.
    let before = discord.last_id();
    discord.slash(&alice_dc, "mygames", &[]).await;
    let listed = discord
        .wait_message(before, "the Discord inbox", |m| {
            m.ephemeral_for == Some(alice_dc.id) && said::says(&m.content, "mygames-heading")
        })
        .await;
    let urls: Vec<String> = discord_table::link_urls(&listed);
    assert_eq!(urls.len(), 2, "{urls:?}");
    assert!(
        urls.iter().any(|l| l.starts_with(&telegram_prefix)),
        "{urls:?}"
    );
    assert!(
        urls.iter().any(|l| l.starts_with(&discord_prefix)),
        "{urls:?}"
    );

    // `/unlink` on Telegram parts them: Discord's inbox has its own game only.
    tg.user_writes(&private, &alice_tg, "/unlink");
    telegram_table::wait_private(&tg, &alice_tg, "unlink-done", ANSWER).await;
    let before = discord.last_id();
    discord.slash(&alice_dc, "mygames", &[]).await;
    let alone = discord
        .wait_message(before, "the inbox after /unlink", |m| {
            m.ephemeral_for == Some(alice_dc.id) && said::says(&m.content, "mygames-heading")
        })
        .await;
    assert_eq!(
        alone.components.len(),
        1,
        "one link: {:?}",
        alone.components
    );
    discord.stop().await;
    discord.assert_clean();
    telegram.assert_clean();
}

//! An interaction as a [`Request`]: the channel is the chat, the server is the community, the
//! member's permissions say whether they moderate, a slash command becomes the text the
//! command parser reads (its USER options become mentions), a button press its `custom_id`.

use serenity::all::{
    CommandDataOption, CommandDataOptionValue, CommandInteraction, ComponentInteraction, GuildId,
    Member, Permissions, User,
};

use tabula_service::commands::{SlashValue, command_text};
use tabula_service::service::{Input, Mention, Person, Request};
use tabula_service::store::Platform;

/// The person who acted: the id, the name the server shows (nickname, else display name) and
/// the username.
pub fn person(user: &User, member: Option<&Member>) -> Person {
    let name = member
        .and_then(|m| m.nick.clone())
        .unwrap_or_else(|| user.display_name().to_string());
    Person::new(user.id.to_string(), name).with_username(user.name.clone())
}

/// Whether the member may manage the server (or administers it): a moderator for the service.
pub fn moderates(member: Option<&Member>) -> bool {
    member
        .and_then(|m| m.permissions)
        .is_some_and(|p| p.contains(Permissions::MANAGE_GUILD) || p.administrator())
}

/// Where an interaction happened, and who acted.
#[derive(Debug)]
pub struct Origin<'a> {
    /// The interaction's id (the request key).
    pub id: String,
    /// The server, if any.
    pub guild: Option<GuildId>,
    /// The server's name, when known.
    pub guild_name: Option<String>,
    /// The channel: id and name.
    pub channel: (String, String),
    /// Who acted.
    pub user: &'a User,
    /// Their membership of the server.
    pub member: Option<&'a Member>,
    /// Their client's locale.
    pub locale: &'a str,
    /// Whether the channel is a thread (its games stay there: a thread holds no other).
    pub in_thread: bool,
}

/// Whether an interaction's channel, as Discord describes it, is a thread.
fn is_thread(channel: Option<&serenity::all::PartialChannel>) -> bool {
    use serenity::all::ChannelType;
    channel.is_some_and(|channel| {
        matches!(
            channel.kind,
            ChannelType::PublicThread | ChannelType::PrivateThread | ChannelType::NewsThread
        )
    })
}

impl Origin<'_> {
    pub fn request(&self, input: Input) -> Request {
        let mut request = Request::new(
            Platform::Discord,
            self.channel.clone(),
            person(self.user, self.member),
            self.id.clone(),
            input,
        );
        request.community = self.guild.map(|guild| {
            (
                guild.to_string(),
                self.guild_name
                    .clone()
                    .unwrap_or_else(|| format!("Discord server {guild}")),
            )
        });
        request.moderator = moderates(self.member);
        // A server's channel is shared; a direct message is not.
        request.group = self.guild.is_some();
        // A server's channel can hold a thread per game; a thread is one already.
        request.threads = self.guild.is_some();
        if self.in_thread {
            request.thread = Some(self.channel.0.clone());
        }
        // Discord chooses an interaction's id; the bot cannot predict it (committed dice).
        request.nonce = Some(self.id.clone());
        request.locale = Some(self.locale.to_string()).filter(|l| !l.is_empty());
        // The person's direct-message channel, opened when the bot first writes there.
        request.private_chat = Some(format!("{}{}", super::DM_PREFIX, self.user.id));
        request
    }
}

/// The channel of an interaction: its id and name (a direct message: "direct messages").
fn channel_of(
    id: serenity::all::ChannelId,
    name: Option<&String>,
    guild: Option<GuildId>,
) -> (String, String) {
    let name = match (name, guild) {
        (Some(name), _) => format!("#{name}"),
        (None, None) => "direct messages".to_string(),
        (None, Some(_)) => format!("channel {id}"),
    };
    (id.to_string(), name)
}

/// The origin of a slash command or an autocomplete.
pub fn command_origin(interaction: &CommandInteraction, guild_name: Option<String>) -> Origin<'_> {
    Origin {
        id: interaction.id.to_string(),
        guild: interaction.guild_id,
        guild_name,
        channel: channel_of(
            interaction.channel_id,
            interaction.channel.as_ref().and_then(|c| c.name.as_ref()),
            interaction.guild_id,
        ),
        user: &interaction.user,
        member: interaction.member.as_deref(),
        locale: &interaction.locale,
        in_thread: is_thread(interaction.channel.as_ref()),
    }
}

/// The origin of a button press.
pub fn component_origin(
    interaction: &ComponentInteraction,
    guild_name: Option<String>,
) -> Origin<'_> {
    Origin {
        id: interaction.id.to_string(),
        guild: interaction.guild_id,
        guild_name,
        channel: channel_of(
            interaction.channel_id,
            interaction.channel.as_ref().and_then(|c| c.name.as_ref()),
            interaction.guild_id,
        ),
        user: &interaction.user,
        member: interaction.member.as_ref(),
        locale: &interaction.locale,
        in_thread: is_thread(interaction.channel.as_ref()),
    }
}

/// A slash command as a request: its options written as the command's text, its USER options
/// (in the command list's order, as the text names them) as mentions the platform resolved.
/// `None`: a command the command list does not know (registered by an older version).
pub fn command_request(interaction: &CommandInteraction, origin: &Origin<'_>) -> Option<Request> {
    let values = slash_values(&interaction.data.options);
    let text = command_text(&interaction.data.name, &values)?;
    let spec = tabula_service::commands::find(&interaction.data.name)?;
    let mut request = origin.request(Input::Command(text));
    for option in spec.options {
        if let Some((_, SlashValue::User(id))) = values.iter().find(|(n, _)| n == option.name) {
            let resolved = interaction
                .data
                .resolved
                .users
                .iter()
                .find(|(user_id, _)| user_id.to_string() == *id);
            let person = match resolved {
                Some((user_id, user)) => {
                    let nick = interaction
                        .data
                        .resolved
                        .members
                        .get(user_id)
                        .and_then(|m| m.nick.clone());
                    Person::new(
                        id.clone(),
                        nick.unwrap_or_else(|| user.display_name().to_string()),
                    )
                    .with_username(user.name.clone())
                }
                None => Person::new(id.clone(), format!("user {id}")),
            };
            request.mentions.push(Mention::Person(person));
        }
    }
    Some(request)
}

/// A button press as a request.
pub fn button_request(interaction: &ComponentInteraction, origin: &Origin<'_>) -> Request {
    let mut request = origin.request(Input::Button(interaction.data.custom_id.clone()));
    request.pressed = Some(interaction.message.id.to_string());
    request
}

/// The options of a slash command as values; sub-commands and kinds the command list never
/// registers are left out.
fn slash_values(options: &[CommandDataOption]) -> Vec<(String, SlashValue)> {
    options
        .iter()
        .filter_map(|option| {
            let value = match &option.value {
                CommandDataOptionValue::String(text) => SlashValue::Text(text.clone()),
                CommandDataOptionValue::Integer(number) => SlashValue::Integer(*number),
                CommandDataOptionValue::Number(number) => {
                    SlashValue::Integer(number.round() as i64)
                }
                CommandDataOptionValue::User(id) => SlashValue::User(id.to_string()),
                CommandDataOptionValue::Boolean(yes) => {
                    SlashValue::Text(if *yes { "yes" } else { "no" }.to_string())
                }
                CommandDataOptionValue::Autocomplete { value, .. } => {
                    SlashValue::Text(value.clone())
                }
                _ => return None,
            };
            Some((option.name.clone(), value))
        })
        .collect()
}

/// What an autocomplete asks: the text typed so far in the focused option, and the `game`
/// option if one was given.
pub fn autocomplete_query(interaction: &CommandInteraction) -> (String, Option<i64>) {
    let mut typed = String::new();
    let mut game = None;
    for option in &interaction.data.options {
        match (&option.name[..], &option.value) {
            (_, CommandDataOptionValue::Autocomplete { value, .. }) => typed = value.clone(),
            ("game", CommandDataOptionValue::Integer(number)) => game = Some(*number),
            _ => {}
        }
    }
    (typed, game)
}

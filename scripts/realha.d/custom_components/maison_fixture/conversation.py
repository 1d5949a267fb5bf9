"""A conversation agent that stands in for an LLM, deterministically.

It knows a few sentences, in English and in French, each of which a model
would answer with one call of one of maison's tools; it calls that tool
the way Home Assistant's LLM agents do (the chat log gets the LLM API the
agent's options name through homeassistant.helpers.llm, and runs the tool
call it is given), then says the tool's words: the first text block of its
answer, which maison writes to be said aloud (a link follows apart).
"""

import re
from typing import Any, Literal

from homeassistant.components import conversation
from homeassistant.const import CONF_LLM_HASS_API
from homeassistant.core import HomeAssistant
from homeassistant.helpers import llm

from . import DOMAIN

# (pattern, tool, argument the named part fills); matched on the sentence
# lowercased, without its final punctuation.
SENTENCES: list[tuple[re.Pattern[str], str, str | None]] = [
    (re.compile(r"is (?:any ?one|someone|somebody) (?:at|on|in) (?:the )?(?P<part>.+)"), "describe_camera", "camera"),
    (re.compile(r"what(?:'s| is) going on(?: at home| in the house)?"), "describe_house", None),
    (re.compile(r"unlock (?:the )?(?P<part>.+)"), "turn_off", "name"),
    (re.compile(r"(?:y a-t-il|est-ce qu'il y a) quelqu'un (?:à|au|aux|dans|devant|sur) (?:la |le |les |l')?(?P<part>.+)"), "describe_camera", "camera"),
    (re.compile(r"(?:qu'est-ce qui se passe|que se passe-t-il)(?: à la maison)?"), "describe_house", None),
    (re.compile(r"déverrouill(?:e|ez|er) (?:la |le |les |l')?(?P<part>.+)"), "turn_off", "name"),
]

UNKNOWN = {"en": "I only know a few sentences, and not that one.", "fr": "Je ne connais que quelques phrases, et pas celle-là."}
NO_API = {"en": "No tools are allowed for me: choose an LLM API in my options.", "fr": "Aucun outil ne m'est permis : choisissez une API LLM dans mes options."}


def understand(text: str) -> tuple[str, dict[str, Any]] | None:
    """The tool call a sentence asks for, or None."""
    said = text.strip().lower().replace("’", "'").rstrip(" ?.!")
    for pattern, tool, argument in SENTENCES:
        if m := pattern.fullmatch(said):
            return tool, ({argument: m["part"]} if argument else {})
    return None


async def async_setup_entry(hass: HomeAssistant, entry, async_add_entities):
    """Add the agent."""
    async_add_entities([FixtureAssistant(entry)])


class FixtureAssistant(conversation.ConversationEntity):
    """Maps a few sentences to tool calls and says the tools' words."""

    _attr_name = "Fixture Assistant"
    _attr_unique_id = "maison_fixture_assistant"
    _attr_supported_features = conversation.ConversationEntityFeature.CONTROL

    def __init__(self, entry) -> None:
        self.entry = entry

    @property
    def supported_languages(self) -> list[str] | Literal["*"]:
        return ["en", "fr"]

    async def _async_handle_message(
        self, user_input: conversation.ConversationInput, chat_log: conversation.ChatLog
    ) -> conversation.ConversationResult:
        lang = "fr" if user_input.language.startswith("fr") else "en"
        api = self.entry.options.get(CONF_LLM_HASS_API)
        try:
            await chat_log.async_provide_llm_data(
                user_input.as_llm_context(DOMAIN), api, None, user_input.extra_system_prompt
            )
        except conversation.ConverseError as err:
            return err.as_conversation_result()
        said = await self._answer(user_input.text, chat_log, lang)
        chat_log.async_add_assistant_content_without_tools(
            conversation.AssistantContent(agent_id=self.entity_id, content=said)
        )
        return conversation.async_get_result_from_chat_log(user_input, chat_log)

    async def _answer(self, text: str, chat_log: conversation.ChatLog, lang: str) -> str:
        if chat_log.llm_api is None:
            return NO_API[lang]
        call = understand(text)
        if call is None:
            return UNKNOWN[lang]
        tool, args = call
        if not any(t.name == tool for t in chat_log.llm_api.tools):
            return f"The tools I am allowed have none called {tool}."
        request = conversation.AssistantContent(
            agent_id=self.entity_id, tool_calls=[llm.ToolInput(tool_name=tool, tool_args=args)]
        )
        async for result in chat_log.async_add_assistant_content(request):
            data = result.result.data
            if result.result.error and "content" not in data:
                return f"The tool {tool} failed: {data.get('error_text') or data.get('error')}"
            texts = [c.get("text", "") for c in data.get("content", []) if c.get("type") == "text"]
            return texts[0] if texts else f"The tool {tool} said nothing."
        return f"The tool {tool} gave no result."

import pytest

from agent.prompts import PromptError, load_prompt, parse_prompt


def write(tmp_path, name, text):
    (tmp_path / f"{name}.txt").write_text(text, encoding="utf-8")


def test_load_and_render(tmp_path):
    write(
        tmp_path,
        "demo",
        'System: answer as JSON like {"a": 1}.\n=== user ===\nText: {{ text }} in {{lang}}\n',
    )
    template = load_prompt("demo", {"text", "lang"}, directory=tmp_path)
    system, user = template.render(text="ECoG", lang="en")
    assert system == 'System: answer as JSON like {"a": 1}.'
    assert user == "Text: ECoG in en"


def test_placeholder_mismatch_is_an_error_at_load_time(tmp_path):
    write(tmp_path, "demo2", "S\n=== user ===\n{{text}}")
    with pytest.raises(PromptError, match="no placeholder for lang"):
        load_prompt("demo2", {"text", "lang"}, directory=tmp_path)
    with pytest.raises(PromptError, match="missing values for text"):
        load_prompt("demo2", set(), directory=tmp_path)


def test_render_checks_values(tmp_path):
    write(tmp_path, "demo3", "S\n=== user ===\n{{text}}")
    template = load_prompt("demo3", {"text"}, directory=tmp_path)
    with pytest.raises(PromptError):
        template.render()
    with pytest.raises(PromptError):
        template.render(text="a", other="b")


def test_missing_and_malformed_prompts(tmp_path):
    with pytest.raises(PromptError, match="no prompt named 'absent'"):
        load_prompt("absent", set(), directory=tmp_path)
    with pytest.raises(PromptError, match="invalid prompt name"):
        load_prompt("../etc/passwd", set())
    with pytest.raises(PromptError, match="=== user ==="):
        parse_prompt("x", "no separator here")


def test_every_shipped_prompt_parses():
    from importlib import resources

    for item in resources.files("prompts").iterdir():
        if item.name.endswith(".txt"):
            template = parse_prompt(item.name[:-4], item.read_text(encoding="utf-8"))
            assert template.system and template.user

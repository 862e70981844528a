import pytest

from agent.errors import ConfigError
from agent.settings import DEFAULT_BASE_URLS, SOURCE_NAMES, load_settings


def test_defaults_point_at_the_real_services(tmp_path):
    settings = load_settings(data_dir=tmp_path)
    for name in SOURCE_NAMES:
        assert settings.base_url(name) == DEFAULT_BASE_URLS[name]
    assert settings.llm_temperature == 0.1
    assert settings.pubmed_rate == 3.0
    assert settings.projects_dir == tmp_path.resolve() / "projects"


def test_ncbi_key_raises_the_pubmed_rate(tmp_path, monkeypatch):
    monkeypatch.setenv("SCHOLARMAP_NCBI_API_KEY", "abc")
    assert load_settings(data_dir=tmp_path).pubmed_rate == 10.0


def test_base_url_from_environment_is_normalised(tmp_path, monkeypatch):
    monkeypatch.setenv("SCHOLARMAP_OPENALEX_BASE_URL", "http://127.0.0.1:9999/openalex/")
    assert load_settings(data_dir=tmp_path).base_url("openalex") == "http://127.0.0.1:9999/openalex"


@pytest.mark.parametrize(
    ("variable", "value", "expected"),
    [
        ("SCHOLARMAP_PUBMED_BASE_URL", "ftp://example.org", "SCHOLARMAP_PUBMED_BASE_URL: must be an http"),
        ("SCHOLARMAP_LLM_TEMPERATURE", "0.7", "SCHOLARMAP_LLM_ALLOW_HIGH_TEMPERATURE"),
        ("SCHOLARMAP_PORT", "99999", "SCHOLARMAP_PORT"),
        ("SCHOLARMAP_MAX_PER_SOURCE", "20000", "SCHOLARMAP_MAX_PER_SOURCE"),
        ("SCHOLARMAP_LLM", "gpt", "SCHOLARMAP_LLM: must be one of auto, openai, rules"),
        ("SCHOLARMAP_HTTP_TIMEOUT", "-1", "SCHOLARMAP_HTTP_TIMEOUT"),
    ],
)
def test_invalid_values_name_the_variable(tmp_path, monkeypatch, variable, value, expected):
    monkeypatch.setenv(variable, value)
    with pytest.raises(ConfigError) as info:
        load_settings(data_dir=tmp_path)
    assert expected in str(info.value)


def test_high_temperature_allowed_when_asked(tmp_path, monkeypatch):
    monkeypatch.setenv("SCHOLARMAP_LLM_TEMPERATURE", "0.5")
    monkeypatch.setenv("SCHOLARMAP_LLM_ALLOW_HIGH_TEMPERATURE", "true")
    assert load_settings(data_dir=tmp_path).llm_temperature == 0.5


def test_secrets_never_show(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-very-secret")
    monkeypatch.setenv("SCHOLARMAP_API_TOKEN", "token-very-secret")
    monkeypatch.setenv("SCHOLARMAP_DATABASE_URL", "postgresql://u:pw-very-secret@h/db")
    settings = load_settings(data_dir=tmp_path)
    shown = repr(settings) + str(settings.public_dict())
    assert "very-secret" not in shown
    assert settings.llm_configured


def test_env_file_is_read(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".env").write_text("SCHOLARMAP_RATE_OPENALEX=4\n")
    assert load_settings(data_dir=tmp_path).rate_openalex == 4.0


def test_credentials_in_urls_are_not_shown(tmp_path):
    settings = load_settings(data_dir=tmp_path, llm_base_url="https://bob:pa55word@llm.example.org/v1")
    assert settings.public_dict()["llm_base_url"] == "https://bob:***@llm.example.org/v1"

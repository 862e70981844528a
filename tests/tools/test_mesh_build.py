"""The embedded MeSH table: built from NLM's descriptor XML (or a JSONL table), read back by MeshFile."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from tools.mesh import MeshFile
from tools.mesh_build import EMBEDDED_MESH, MeshBuildError, build, embedded_year

# Two records in the layout of NLM's desc<YEAR>.xml (DescriptorRecordSet DTD); the second lists a
# non-preferred concept first to show that the preferred concept's terms come first in the table.
NLM_XML = """<?xml version="1.0"?>
<!DOCTYPE DescriptorRecordSet SYSTEM "https://www.nlm.nih.gov/databases/dtd/nlmdescriptorrecordset_20240101.dtd">
<DescriptorRecordSet LanguageCode="eng">
<DescriptorRecord DescriptorClass="1">
  <DescriptorUI>D062207</DescriptorUI>
  <DescriptorName><String>Brain-Computer Interfaces</String></DescriptorName>
  <TreeNumberList><TreeNumber>E07.305.076</TreeNumber></TreeNumberList>
  <ConceptList>
    <Concept PreferredConceptYN="Y">
      <ConceptUI>M0556442</ConceptUI>
      <ConceptName><String>Brain-Computer Interfaces</String></ConceptName>
      <TermList>
        <Term ConceptPreferredTermYN="Y" IsPermutedTermYN="N" LexicalTag="NON" RecordPreferredTermYN="Y">
          <TermUI>T779017</TermUI><String>Brain-Computer Interfaces</String>
        </Term>
        <Term ConceptPreferredTermYN="N" IsPermutedTermYN="N" LexicalTag="NON" RecordPreferredTermYN="N">
          <TermUI>T779018</TermUI><String>Brain-Machine Interfaces</String>
        </Term>
      </TermList>
    </Concept>
  </ConceptList>
  <SeeRelatedList><SeeRelatedDescriptor><DescriptorReferredTo>
    <DescriptorUI>D000001</DescriptorUI><DescriptorName><String>Not this one</String></DescriptorName>
  </DescriptorReferredTo></SeeRelatedDescriptor></SeeRelatedList>
</DescriptorRecord>
<DescriptorRecord DescriptorClass="1">
  <DescriptorUI>D012377</DescriptorUI>
  <DescriptorName><String>Rodentia</String></DescriptorName>
  <TreeNumberList><TreeNumber>B01.050.150.900.649.313.992</TreeNumber></TreeNumberList>
  <ConceptList>
    <Concept PreferredConceptYN="N">
      <ConceptUI>M0019045</ConceptUI><ConceptName><String>Beavers</String></ConceptName>
      <TermList><Term><TermUI>T1</TermUI><String>Beavers</String></Term></TermList>
    </Concept>
    <Concept PreferredConceptYN="Y">
      <ConceptUI>M0019044</ConceptUI><ConceptName><String>Rodentia</String></ConceptName>
      <TermList>
        <Term><TermUI>T2</TermUI><String>Rodentia</String></Term>
        <Term><TermUI>T3</TermUI><String>Rodents</String></Term>
      </TermList>
    </Concept>
  </ConceptList>
</DescriptorRecord>
</DescriptorRecordSet>
"""


def test_build_from_nlm_xml(tmp_path: Path) -> None:
    source = tmp_path / "desc2025.xml"
    source.write_text(NLM_XML, encoding="utf-8")
    report = build(source, tmp_path / "mesh.jsonl.gz")
    assert (report.descriptors, report.year) == (2, 2025)
    assert embedded_year(report.path) == 2025
    mesh = MeshFile(report.path)
    bci = mesh.get("D062207")
    assert bci.heading == "Brain-Computer Interfaces" and bci.entry_terms == ["Brain-Machine Interfaces"]
    assert bci.tree_numbers == ["E07.305.076"]
    assert mesh.get("D012377").entry_terms == ["Rodents", "Beavers"]  # the preferred concept first
    assert [d.ui for d in mesh.find("brain-machine interfaces")] == ["D062207"]


def test_build_from_a_jsonl_table_drops_permuted_terms(tmp_path: Path) -> None:
    source = tmp_path / "mesh2024_descriptors.jsonl.gz"
    row = {
        "ui": "D004827",
        "heading": "Epilepsy",
        "entry_terms": ["Seizure Disorder"],
        "permuted_terms": ["Epilepsies"],
        "tree_numbers": ["C10.228.140.490"],
    }
    with gzip.open(source, "wt", encoding="utf-8") as handle:
        handle.write(json.dumps(row) + "\n")
    report = build(source, tmp_path / "out.jsonl.gz")
    assert report.year == 2024 and report.terms == 2
    with gzip.open(report.path, "rt", encoding="utf-8") as handle:
        lines = [json.loads(line) for line in handle]
    assert lines[0]["meta"]["descriptors"] == 1 and "permuted_terms" not in lines[1]


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("desc2025.xml", "<DescriptorRecordSet><DescriptorRecord>", "not well-formed XML"),
        ("table.jsonl", "{not json\n", "line 1 is not JSON"),
        ("table.jsonl", '{"heading": "no ui"}\n', "no 'ui'"),
        ("desc2025.xml", "<DescriptorRecordSet></DescriptorRecordSet>", "no MeSH descriptor records"),
    ],
)
def test_bad_sources_say_what_is_wrong(tmp_path: Path, name: str, content: str, message: str) -> None:
    source = tmp_path / name
    source.write_text(content, encoding="utf-8")
    out = tmp_path / "out.jsonl.gz"
    with pytest.raises(MeshBuildError, match=message):
        build(source, out)
    assert not out.exists()  # nothing half-written


def test_missing_source(tmp_path: Path) -> None:
    with pytest.raises(MeshBuildError, match="does not exist"):
        build(tmp_path / "desc2025.xml", tmp_path / "out.jsonl.gz")


def test_the_embedded_table_ships_with_its_year() -> None:
    assert EMBEDDED_MESH.is_file() and embedded_year() == 2024
    assert (EMBEDDED_MESH.parent / "MESH_NOTICE.md").is_file()
    assert len(MeshFile(EMBEDDED_MESH)) > 30_000


def test_the_command_writes_where_asked_and_fails_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from server.cli.main import main

    source = tmp_path / "desc2025.xml"
    source.write_text(NLM_XML, encoding="utf-8")
    out = tmp_path / "mesh.jsonl.gz"
    assert main(["mesh-build", str(source), "--out", str(out)]) == 0
    assert "MeSH 2025: 2 descriptors" in capsys.readouterr().out and embedded_year(out) == 2025
    assert main(["mesh-build", str(tmp_path / "missing.xml"), "--out", str(out)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("scholarmap: error:") and "does not exist" in err[0]

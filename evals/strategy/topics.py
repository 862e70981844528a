"""The expert strategies: CLEF TAR 2018 (training and test split) and the Seed collection.

Read from `../shared/data/boolean_queries` (see its SOURCE.md), never copied into the repository.
- CLEF: `clef_tar/CLEF-2018.jsonl`, field `original_query` (the expert Ovid query translated to
  PubMed). The split comes from `clef_tar_2018_task2_topics.jsonl.gz`, field `source`: the 42
  `2018-TAR/Task2/Training` topics (carried over from 2017) are where rules may be chosen, the 30
  `.../Testing` topics are only measured.
- Seed: `seed_collection/bgr_seed_collection.jsonl`, field `Edited search` (the PubMed-ready query;
  `overall_collection.jsonl` has wrong queries for topics 1 and 103). Topic 42 is suspect (its title
  and query disagree between the two upstream copies), so Seed is reported with and without it.
- Librarian (`librarian_dev.jsonl` beside this module, written for this project, not evaluation data):
  25 titles of the review kinds Seed holds and CLEF does not (intervention against a comparator,
  exposure and outcome, prognosis and risk factors, prevalence, a programme in a setting, qualitative
  experience; nursing, public health, physiotherapy, nutrition, mental health, surgery, pharmacology,
  dentistry), each with the query a medical librarian would write (headings checked against MeSH 2024).
  A development split: rules for those review kinds may be chosen on it, as on `clef_train`. The
  rows with `"batch": 2` (15 titles of obstetrics, oncology supportive care, infectious disease
  prevention, rehabilitation, paediatrics, occupational health, geriatrics, pharmacy practice,
  ophthalmology and health services) were written after the first 25 had been tuned on, and are
  reported apart as `librarian2`, so that a rule chosen on the first batch shows whether it carries over.
  The rows with `"batch": 3` (15 titles of dermatology, psychiatry, anaesthesia, palliative care,
  environmental and occupational health, sexual health, sports medicine, nutrition, emergency medicine,
  digital health, the nursing workforce and dentistry) were written after the first 40 had been tuned on,
  and are reported apart as `librarian3` for the same reason.
  The rows with `"batch": 4` (15 titles of cardiology, gastroenterology, urology, public-health policy,
  neurology, respiratory medicine, haematology, rheumatology, audiology, addiction medicine, paediatric
  orthopaedics, reproductive medicine, critical care, primary care and environmental health) were written
  to be harder, like real review titles: long, with a comparator, a subgroup, an outcome list, a setting,
  a design word, drug classes, a brand name, an eponym, abbreviations defined in the title, devices,
  surgery, a policy and a public-health exposure. Written after the first 55 had been tuned on, they are
  reported apart as `librarian4`.
  The rows with `"batch": 5` (15 titles of nursing, public health, occupational health, dentistry,
  pharmacy practice, veterinary public health (One Health), physiotherapy, pharmacoepidemiology,
  neonatology, mental health and geriatrics) were written as hard as Seed's titles: long, a comparator,
  a subgroup, a setting, a population named by a social or occupational group (homeless adults, miners,
  farm workers, police officers, university students), a programme or policy (Housing First, cash
  transfers, smoke-free legislation), an exposure measured over time, and two qualitative evidence
  syntheses. Written after the first 70 had been tuned on, they are reported apart as `librarian5`.
  The rows with `"batch": 6` (15 titles of social care, health services, dentistry, nutrition, workplace
  mental health, environmental mental health, health policy, nursing homes, harm reduction,
  occupational heat exposure, digital outpatient care, tobacco control in pregnancy and screening
  equity) were written, as hard as Seed's, after the first 85 had been tuned on and before the product
  was run on them: a population named by a social group (family carers, people who inject drugs,
  ethnic minority and migrant women, outdoor workers, children in care), a policy or programme (user
  fee removal, water fluoridation, restraint reduction, supervised injection facilities), a comparator,
  a setting, an outcome list, a scoping review and a qualitative evidence synthesis. They are reported
  apart as `librarian6`.
  The rows with `"batch": 7` (15 titles of nursing, mental health, environmental health, dentistry,
  nutrition policy, alcohol policy, social care, health services, global child health, pharmacy
  practice and maternity care) were written the same way, as hard as Seed's, after the first 100 had
  been tuned on and before the product was run on them: a programme or policy named by a name MeSH does
  not know (social prescribing, minimum unit pricing, personal budgets, hospital at home, bedside
  handover, front-of-package labelling), a social group (ethnic minority women, people with learning
  disabilities), an outcome list the expert requires as a block, a qualitative evidence synthesis and a
  scoping review. They are reported apart as `librarian7`.
  The rows with `"batch": 8` (ids T01-T10: 10 diagnostic test accuracy titles, the kind CLEF TAR holds,
  "X for detecting Y in Z": paediatric respiratory medicine, gastroenterology, dermatology, emergency
  cardiology, anaesthesia, infectious diseases, gynaecological oncology, breast imaging and old-age
  psychiatry; index tests that are imaging, a biomarker, a rapid test, a questionnaire, an assay and a
  cognitive test) were written before the product was run on them, each with the blocks an information
  specialist would search for such a review (target condition and index test, the population only
  where it narrows the question; no reference standard, no accuracy words). They are reported apart as
  `librarian8`.
  The rows with `"batch": 9` (ids U01-U15: nursing, public health, social care, dentistry, nutrition,
  mental health, environmental health, health policy, rehabilitation, maternity care and health
  services) were written as hard as Seed's titles, after the first 125 had been tuned on and before the
  product was run on them: programmes and services MeSH names only in part or not at all (intentional
  rounding, walking groups, reablement, crisis resolution teams, individual placement and support,
  pay-for-performance, paid family leave), a comparator, a social group, a setting, outcome lists, an
  exposure (wildfire smoke, solid cooking fuels, adverse childhood experiences) and a qualitative
  evidence synthesis. They are reported apart as `librarian9`.
  The rows with `"batch": 10` (ids V01-V10: 10 more diagnostic test accuracy and screening titles:
  hepatology, neonatal screening, urology, tropical medicine, stroke medicine, obstetric medicine,
  developmental paediatrics, paediatric emergency medicine, paediatric surgery and rheumatology; index
  tests that are imaging, a physiological measurement, a biomarker, a rapid test and a checklist; one
  title with accuracy words, one with a reference standard named as the comparator) were written the
  same way, before the product was run on them, and are reported apart as `librarian10`.
  The rows with `"batch": 11` (ids W01-W10: 10 titles whose population is given by age, in varied
  wordings: infants aged 4 to 6 months, toddlers, school-age children aged 6 to 12, adolescents aged 12
  to 18, young people aged 15-24, adults aged 65 and over, the oldest old, perinatal women, children
  under five, and adults aged 40 to 70 where the age only narrows; paediatric allergy, developmental
  paediatrics, school health, adolescent mental health, HIV prevention, geriatrics, geriatric
  cardiology, perinatal mental health, global child health and cardiovascular prevention) were written
  the same way, before the product was run on them, with the MeSH age groups a librarian maps the
  ages to, and are reported apart as `librarian11`.
  The rows with `"batch": 12` (ids X01-X10: mental health services, digital health, the health
  workforce, public-health policy, social care, public-health nutrition and environmental health) were
  written as hard as Seed's titles, before the product was run on them: programmes and roles named by
  several words MeSH knows only in part (peer support workers, remote patient monitoring programmes,
  task shifting, clinical decision support systems, nurse practitioner-led clinics, free school meal
  programmes, de-escalation training), a tax, a comparator, a setting, outcome lists and a long-term
  exposure. They are reported apart as `librarian12`.
  The rows with `"batch": 13` (ids Y01-Y10: rehabilitation, digital health, nursing, environmental
  health, pharmacology and mental health services) were written as hard as Seed's titles, before the
  product was run on them: long titles with multi-word intervention names MeSH knows only in part
  (robot-assisted gait training, smartphone-delivered cognitive behavioural therapy, nurse-led
  transitional care, constraint-induced aphasia therapy, early intervention in psychosis services,
  family presence during resuscitation, portable HEPA filtration), a comparator, a population named by
  age, an exposure in a setting and a qualitative evidence synthesis. They are reported apart as
  `librarian13`.
  The rows with `"batch": 14` (ids Z01-Z10: pharmacy practice, midwifery, occupational therapy,
  public-health law, school health, oral health, palliative care, addiction services, prison health and
  speech and language therapy) were written as hard as Seed's titles, before the product was run on
  them: long titles with a comparator, a setting, a social group, a programme and an outcome list
  (a pharmacist-led intervention, water immersion in labour, smoke-free legislation, school-based HPV
  vaccination with its uptake, supervised toothbrushing, take-home naloxone, opt-out testing on entry to
  prison, parent-implemented language interventions). They are reported apart as `librarian14`.
  The rows with `"batch": 15` (ids P2-01-P2-08: obstetrics, environmental epidemiology, paediatric
  emergency medicine, cardiac rehabilitation, psychiatry, surgical infection, geriatric nursing and
  global health) were written after the heading precision rules of the fifteenth session, before the
  product was run on them: a drug for prevention, an exposure, a point-of-care test, a setting compared,
  a prognosis over years, an infection after surgery, a device in a care home and reminders in
  low-income countries. They are reported apart as `librarian15`.
  The rows with `"batch": 16` (ids P3-01-P3-10: dietetics, speech and language therapy, prison health,
  migrant health, environmental health, sexual health services, podiatry, radiography, manual therapy and
  tobacco control in maternity care) were written as hard as Seed's titles in the sixteenth session,
  before the product was run on them: long titles with a comparator, a setting, a social group
  (incarcerated people, refugees and asylum seekers, young people, older adults), a device, an exposure
  named with its acronym-like nickname in brackets (fracking) and outcome lists. They are reported apart
  as `librarian16`.
  The rows with `"batch": 17` (ids P4-01-P4-08: travel medicine, neonatology, geriatric pharmacology,
  paediatrics, emergency medical services, adolescent endocrinology, environmental epidemiology and
  obstetrics) were written after the heading precision rule of the sixteenth session (a parent with at
  most one entry term), before the product was run on them: a device for prevention in travellers, a
  screening measurement in newborns, a drug exposure's risk, an antibiotic for a childhood infection, a
  community programme for older people, a qualitative transition, heat waves, and two routes of one drug.
  They are reported apart as `librarian17`.
  The rows with `"batch": 18` (ids P5-01-P5-10: injury prevention, transfusion medicine, infection
  prevention and control, sleep medicine, maternity care, addiction psychiatry, public-health nutrition,
  burn care, continence care and developmental disability services) were written as hard as Seed's
  titles in the seventeenth session, before the product was run on them: long titles with a
  comparator, a setting, a social group (novice adolescent drivers, low-income households, older women
  in residential aged care), a programme, outcome lists after a colon, and aliases or acronyms in
  brackets (GDL, CBT-I, pathological gambling, EIBI). They are reported apart as `librarian18`.
  The rows with `"batch": 19` (ids P6-01-P6-08: pharmacy practice, occupational health, endocrine
  surgery, cardiac anaesthesia, health services, palliative neurology, geriatric dentistry and global eye
  health) were written after the heading precision rules of the seventeenth session (the sex of the
  people studied is not AND'ed; outcomes of a list that shares a word are listed), before the product
  was run on them: a pharmacist-delivered education against usual care, a working-time exposure, an
  imaging test's accuracy, risk factors after surgery, reminders for attendance, a qualitative
  synthesis of caregivers, two varnishes compared in care homes and a school programme in low- and
  middle-income countries. They are reported apart as `librarian19`.
  The rows with `"batch": 20` (ids P7-01-P7-10: nephrology, obstetric surgery, paediatric
  otolaryngology, pain medicine, paediatric emergency radiology, Indigenous health, housing and mental
  health, neurosurgery, vascular surgery and occupational lactation support) were written as hard as
  Seed's titles in the eighteenth session, before the product was run on them: long titles with a
  comparator (in-centre haemodialysis, standard dressings, watchful waiting, treatment first, endovascular
  revascularisation), a social group (Indigenous peoples, people experiencing homelessness, employed
  mothers), a programme, outcome lists after a colon, aliases in brackets (grommets, glue ear) and a
  diagnostic-accuracy question in children. They are reported apart as `librarian20`.
  The rows with `"batch": 21` (ids P8-01-P8-10: infection prevention nursing, pharmacy practice,
  paediatric dentistry, critical care nursing, neonatology, stroke rehabilitation, global public health,
  colorectal surgery, health services and psychiatry) were written as hard as Seed's titles in the
  nineteenth session, before the product was run on them: comparators (soap-and-water bathing, usual
  physician care, fluoride varnish or no treatment, conventional perioperative care, oral drugs),
  settings (intensive care units, out-of-hours primary care, low- and middle-income countries), age
  groups (adolescents, preterm infants, children under five), acronyms in brackets (CLABSI, WASH, ERAS),
  a qualitative synthesis, a risk-factor review and a diagnostic-accuracy review. They are reported
  apart as `librarian21`.
  The rows with `"batch": 22` (ids P9-01-P9-10: care home nursing, pelvic health physiotherapy, public
  health economics, paediatric surgery, paediatric neurology, mental health services, geriatric
  pharmacy, orthodontics, health services and environmental epidemiology) were written as hard as
  Seed's titles in the twentieth session, before the product was run on them: comparators (usual care,
  written instructions, manual toothbrushing, inpatient hospital care), a setting that defines the
  question (care homes), age groups (postpartum women, children, adolescents, older adults), acronyms in
  brackets (SSB, AIR, PPIs, COPD), a programme family (hospital at home), a cost-effectiveness review,
  a qualitative synthesis, a prognostic-factor review, a diagnostic-accuracy review and an exposure
  whose outcome defines the topic. They are reported apart as `librarian22`.
  The rows with `"batch": 23` (ids P10-01-P10-10: continence nursing, paediatric emergency medicine,
  midwifery, orthogeriatrics, global public health, vascular rehabilitation, pharmacy practice,
  paediatric occupational therapy, surgical oncology and adolescent mental health) were written as hard
  as Seed's titles in the twenty-first session, before the product was run on them: comparators (usual
  continence care, chest radiography, conventional walking), settings (nursing homes, emergency
  departments, community pharmacies, sub-Saharan Africa), age groups (children, school-aged children,
  older people, adolescents), gerunds that name the intervention or outcome (toileting, walking,
  handwriting), a programme family (community health worker home visiting), a qualitative synthesis, an
  implementation-barriers review, a risk-factor review, a diagnostic-accuracy review and an exposure
  whose outcome defines the topic. They are reported apart as `librarian23`.
  The rows with `"batch": 24` (ids P11-01-P11-10: paediatric dentistry, geriatric cardiology nursing,
  midwifery, obstetric surgery in global health, adolescent mental health, infection prevention in
  long-term care, stroke rehabilitation, global child health, surgical services and paediatric speech
  and language therapy) were written as hard as Seed's titles in the twenty-second session, before the
  product was run on them: comparators (fluoride varnish, inpatient surgery), settings (nursing homes,
  low- and middle-income countries, primary care), age groups (preschool children, older adults,
  adolescents, toddlers), gerunds that name the outcome or the act (arresting, returning to work), a
  named programme family (nurse-led transitional care, parenting programmes), a qualitative synthesis,
  an implementation-barriers review, a risk-factor and a prognostic-factor review and a
  diagnostic-accuracy review. They are reported apart as `librarian24`.
  The rows with `"batch": 25` (ids P12-01-P12-10: geriatric surgery, digital maternal health, dentistry,
  child and adolescent mental health, paediatric anaesthesia, vestibular physiotherapy, infection
  prevention nursing, pharmacy in long-term care, speech and language therapy in oncology and emergency
  public health) were written as hard as Seed's titles in the twenty-third session, before the product
  was run on them: settings (rural areas of low- and middle-income countries, care homes, emergency
  departments, hospital), age groups (older adults, children, young people, adolescents and young
  adults), outcomes that define the topic (emergence delirium, anticholinergic burden, feeding tube
  dependence), gerunds (waiting, implementing), a programme family (brief alcohol interventions), a
  scoping review, a qualitative synthesis, an implementation review, a prognostic-factor review and a
  diagnostic-accuracy review with a comparator test. They are reported apart as `librarian25`.
  The rows with `"batch": 26` (ids P13-01-P13-10: ward nursing, midwifery, hospital patient safety,
  community pharmacy, emergency care and musculoskeletal physiotherapy, paediatric dentistry, social
  prescribing for older people, paediatric health informatics, orthopaedic surgery and global child
  health) were written as hard as Seed's titles in the twenty-fourth session, before the product was
  run on them: comparators ("versus usual care", conventional restorations, topical versus
  intravenous, laboratory measurement), settings (acute medical wards, hospital maternity units, general
  wards, community pharmacies, emergency departments, primary care, sub-Saharan Africa), age groups
  (older inpatients, children, community-dwelling older adults, children under five), outcomes that
  define the topic (falls and pressure ulcers, loneliness, medication errors, all-cause mortality), a
  programme family (social prescribing, mass drug administration), gerunds (implementing, recognising,
  managing), a qualitative synthesis, an implementation-barriers review, a prognostic-factor review and
  a diagnostic-accuracy review against a laboratory standard. They are reported apart as `librarian26`
  (0.498 / 0.797 / 0.908 as written: MeSH recall, precision, strict block coverage).
  The rows with `"batch": 27` (ids P14-01-P14-10: infection prevention in critical care, perinatal
  bereavement care, paediatric emergency medicine, geriatric colorectal surgery, allied health in rural
  services, primary care prescribing, cardiac rehabilitation, paediatric dentistry, emergency mental
  health and stroke care) were written as hard as Seed's titles in the twenty-fifth session, before the
  product was run on them: comparators (targeted screening and isolation, moderate-intensity continuous
  training), settings (adult intensive care units, hospital, emergency departments, rural and remote
  areas, general practice, deprived communities), age groups (children, older adults, older patients,
  adults), outcomes that define the topic (MRSA infection, clinically important brain injury,
  postoperative complications and mortality, cardiorespiratory fitness, door-to-needle time), programme
  families without a heading of their own (universal decolonisation, brief contact interventions,
  quality improvement interventions), a title opening with a gerund ("Reducing ..."), a qualitative
  synthesis, an implementation-barriers review, a prognostic review and a diagnostic-accuracy review of
  decision rules. They are reported apart as `librarian27`
  (0.432 / 0.773 / 0.842 as written: MeSH recall, precision, strict block coverage).
  The rows with `"batch": 28` (ids P15-01-P15-10: clinical toxicology, paediatric audiology, sleep and
  shift work, ocular trauma, sexual health and HIV prevention, veterinary public health, forensic
  pathology, palliative care in nursing homes, transplant rehabilitation and occupational toxicology)
  were written as hard as Seed's titles in the twenty-sixth session, before the product was run on them:
  comparators ("versus bimodal hearing", "compared with mass spectrometry", "compared with conventional
  autopsy"), settings (emergency departments, night shifts, sub-Saharan Africa, low- and middle-income
  countries, nursing homes), age groups (children, young women, adults), outcomes that define the topic
  (human rabies deaths, Parkinson's disease, cause of death, visual outcome), a programme family (mass
  dog vaccination campaigns), gerunds (napping, implementing, determining), "for X in Y", a qualitative
  evidence synthesis, an implementation-barriers review, a prognostic-factor review and two
  diagnostic-accuracy reviews. They are reported apart as `librarian28`
  (0.443 / 0.859 / 0.917 as written: MeSH recall, precision, strict block coverage).
  The rows with `"batch": 29` (ids P16-01-P16-10: otology, hepatology, pharmacogenomics, tuberculosis
  control, military health, plastic and reconstructive surgery, perinatal pharmacoepidemiology, homeless
  health, hyperbaric medicine and sports cardiology) were written as hard as Seed's titles in the
  twenty-seventh session, before the product was run on them: a line of treatment ("as salvage therapy
  ... after failed systemic steroid treatment"), a reference standard ("with liver biopsy as the reference
  standard"), genotypes (CYP2C19 loss-of-function alleles), contacts of people with a disease (household
  contacts), a transition between two lives (military to civilian), a wound after an operation (closed
  incisions after breast reconstruction), exposure in pregnancy and an outcome in offspring, a population
  named by a state ("people experiencing homelessness"), a setting of income ("high-income countries"),
  a past treatment as the population ("patients irradiated for head and neck cancer"), criteria that
  qualify a test ("athlete-specific criteria"), a qualitative synthesis, a prevalence review and two
  diagnostic-accuracy reviews. They are reported apart as `librarian29`
  (0.503 / 0.785 / 0.817 as written: MeSH recall, precision, strict block coverage).
  The rows with `"batch": 30` (ids P17-01-P17-10: interventional cardiology, haematological oncology,
  paediatric critical care, thrombosis medicine, reproductive endocrinology, diabetology, perioperative
  medicine, vascular access nursing, bariatric surgery and paediatric gastroenterology) were written as
  hard as Seed's titles in the twenty-eighth session, before the product was run on them: acronyms the
  title leaves unexplained (TAVR, DLBCL, VTE, T2DM), outcomes that are themselves conditions named beside
  the condition of the people ("for weight loss and insulin resistance in women with polycystic ovary
  syndrome", "to reduce postoperative complications"), a device named by its parts ("high-flow nasal
  cannula"), "<region> surgery" ("major abdominal surgery"), a harm of a drug class (diabetic
  ketoacidosis with SGLT2 inhibitors), a comparator the expert leaves out ("versus low-molecular-weight
  heparin", "versus lifestyle modification"), a condition qualifying a disease ("cancer-associated"), a
  line of treatment ("relapsed or refractory"), a prognostic review, a qualitative evidence synthesis and
  a diagnostic-accuracy review against a differential ("from functional abdominal pain disorders").
  They are reported apart as `librarian30`
  (0.498 / 0.558 / 0.717 as written: MeSH recall, precision, strict block coverage).
  The rows with `"batch": 31` (ids P18-01-P18-10: addiction medicine, cardiovascular pharmacology,
  exercise oncology, interventional radiology, vaccinology, point-of-care ultrasound, critical care
  nephrology, rheumatology nursing, neurointervention and gastrointestinal endoscopy) were written as
  hard as Seed's titles in the twenty-ninth session, before the product was run on them: three-letter
  acronyms the title leaves unexplained (OUD, MI, RA, AKI), comparators the expert leaves out ("versus
  sublingual buprenorphine", "versus myomectomy", "versus 0.9% saline", "versus live attenuated zoster
  vaccine", "versus hot snare"), outcomes that are themselves conditions ("major adverse cardiovascular
  events", "delayed bleeding", "herpes zoster" prevented by its vaccine), a symptom qualified by its
  disease ("cancer-related fatigue"), a formulation block ("extended-release injectable"), a time window
  and selection by imaging, and a diagnostic-accuracy review.
  They are reported apart as `librarian31`
  (0.380 / 0.685 / 0.850 as written: MeSH recall, precision, strict block coverage; one title had
  crashed the generator and was scored as an empty query).
  The rows with `"batch": 32` (ids P19-01-P19-10: hand surgery, maternal-fetal medicine, antimicrobial
  stewardship, cardiac electrophysiology, wound care, psycho-oncology, thoracic surgery, renal
  pharmacoepidemiology, paediatric infectious diseases and neurocritical care) were written as hard as
  Seed's titles in the thirtieth session, before the product was run on them: three-letter acronyms the
  title leaves unexplained (AF, CKD, and NSCLC), comparators the expert ORs into one block or leaves out
  ("versus surgical release", "versus antiarrhythmic drugs", "versus open lobectomy", "oral versus initial
  intravenous"), outcomes that are themselves conditions ("major amputation", "postoperative
  complications", "renal scarring", "arrhythmia recurrence"), a prevented condition the expert does search
  ("prevention of preeclampsia"), a selection by screening, a line of therapy ("first-line"), an
  exposure review and a diagnostic-accuracy review.
  They are reported apart as `librarian32`
  (0.449 / 0.733 / 0.850 as written: MeSH recall, precision, strict block coverage).
  The rows with `"batch": 33` (ids P20-01-P20-10: radiation oncology, endocrinology, hepatobiliary
  medicine, perioperative cardiology, regional anaesthesia, dementia care, HIV medicine, refugee health,
  cancer-associated thrombosis and respiratory critical care) were written as hard as Seed's titles in the
  thirty-first session, before the product was run on them: acronyms the title leaves unexplained (SGLT2,
  MRCP, ART, PTSD, VTE), comparators the expert ORs into the intervention block ("versus conventional
  whole-breast radiotherapy", "versus MRCP", "versus low-molecular-weight heparin", "versus non-invasive
  ventilation"), outcomes the expert leaves out ("local recurrence and late toxicity", "reintubation"),
  a setting that is itself a concept ("after noncardiac surgery", "after extubation", "the move to a care
  home"), an exposure, a prognosis, a prevalence, a qualitative and a diagnostic-accuracy review.
  They are reported apart as `librarian33`
  (0.486 / 0.897 / 0.783 as written: MeSH recall, precision, strict block coverage).
  The rows with `"batch": 34` (ids P21-01-P21-10: spine surgery, neuro-oncology epidemiology,
  paediatric neurodisability, neuroimmunology, bone metabolism, stoma care nursing, paediatric urology,
  occupational dermatology, interventional cardiology and global cardiovascular health) were written as
  hard as Seed's titles in the thirty-second session, before the product was run on them: two-letter
  acronyms the title leaves unexplained (CP, MS, MI), comparators between two active treatments the
  expert ORs into one block ("versus microscopic discectomy", "versus serial casting", "versus
  bisphosphonates", "invasive versus conservative"), a head-and-action phrase ("fracture prevention"),
  outcomes the expert leaves out ("gait, range of motion and recurrence", "death and reinfarction",
  "blood pressure outcomes"), an exposure, a prognosis, a prevalence, a qualitative, a programme and a
  diagnostic-accuracy review.
  They are reported apart as `librarian34`
  (0.397 / 0.758 / 0.817 as written: MeSH recall, precision, strict block coverage).
  The rows with `"batch": 35` (ids P22-01-P22-10: extracorporeal life support, inflammatory bowel
  disease, perioperative sleep medicine, digital cardiology, kidney medicine, respiratory nursing,
  intensive care medicine, perinatal epidemiology, transplant infectious diseases and violence
  prevention) were written as hard as Seed's titles in the thirty-third session, before the product was run
  on them: acronyms the title leaves unexplained (ECMO, MI, UC, OSA, ECG, AF, CKD, COPD, CMV),
  "Outcomes of X in Y" and "Prevalence and outcomes of X" openings, comparators between two active
  treatments the expert ORs into one block ("tofacitinib versus vedolizumab") or leaves out ("versus
  non-invasive ventilation"), a heading that covers the whole phrase ("High-flow nasal oxygen" ->
  Oxygen Inhalation Therapy), outcomes the expert leaves out, an exposure, a prognosis, a prevalence,
  a qualitative, a programme and a diagnostic-accuracy review.
  They are reported apart as `librarian35`
  (0.319 / 0.656 / 0.733 as written: MeSH recall, precision, strict block coverage).
  The rows with `"batch": 36` (ids P23-01-P23-10: structural heart disease and anticoagulation,
  metabolic liver disease, resuscitation science, paediatric nephrology, haemoglobinopathies, heart
  failure nursing, neuro-otology, cancer screening, obstetric anaesthesia and respiratory epidemiology)
  were written as hard as Seed's titles in the thirty-fourth session, before the product was run on
  them: acronyms the title leaves unexplained (DOAC, MI, MASLD, CKD, NSE, OHCA, PH, SCD, LVAD, HINTS,
  ED, AVS, CRC, RSV), comparators between two active treatments the expert ORs into one block
  ("DOACs versus warfarin", "rituximab compared with tacrolimus", "phenylephrine infusion versus
  ondansetron"), an exposure, a prognosis, a prevalence, a qualitative, a programme and a
  diagnostic-accuracy review.
  They are reported apart as `librarian36`
  (0.241 / 0.698 / 0.733 as written, one topic a generator error: MeSH recall, precision, strict block
  coverage).
  The rows with `"batch": 37` (ids P24-01-P24-10: thyroidology, rhinology, paediatric cardio-oncology,
  ophthalmic screening, living organ donation, global maternal nutrition, geriatric psychopharmacology,
  vascular surgery, paediatric allergy and infectious diseases) were written as hard as Seed's titles in
  the thirty-fifth session, before the product was run on them: acronyms the title defines or leaves
  unexplained (CRSwNP, SNOT-22, MMS, IFA, EVAR, OIT, IgE), comparators between two active treatments the
  expert ORs into one block ("radioactive iodine versus antithyroid drugs") or leaves out ("compared with
  retinal specialists", "compared with iron-folic acid", "seven versus fourteen days"), a subgroup, a
  setting and outcome lists the expert leaves out, and queries of two or three blocks as Seed's are; an
  exposure, a prognosis, a prevalence, a qualitative, a programme and a diagnostic-accuracy review.
  They are reported apart as `librarian37`
  (0.311 / 0.505 / 0.683 as written: MeSH recall, precision, strict block coverage).
- Engineering (`engineering_dev.jsonl` beside this module, written for this project): 50 research
  titles outside medicine (machine learning, materials, energy, economics, civil and mechanical
  engineering, remote sensing, education, finance), each with the blocks an information specialist
  would search, written in PubMed's syntax so that the same metrics apply (`[tiab]` words, MeSH only
  where MeSH has the concept). The users who are engineers get the same concept judgement as the
  clinicians; MeSH precision and recall mostly do not apply here, block coverage does. A development
  split. The rows with `"batch": 2` (robotics, chemical engineering, operations, NLP, urban climate,
  macroeconomics, mechanical design, data mining, hydrogeology, education technology) were written
  after the first 15 had been tuned on, and are reported apart as `engineering2`. The rows with
  `"batch": 3` (telecommunications, power systems, geotechnical engineering, water treatment, computer
  vision, marketing, fire science, quantum computing, political science, logistics) were written after
  the first 25 had been tuned on, before any rule was chosen on them, and are reported apart as
  `engineering3`. The rows with `"batch": 4` (aerospace engineering, acoustics, agricultural
  engineering, nuclear engineering, seismology, tribology, building energy, urban economics, astronomy,
  criminology) were written after the first 35 had been tuned on, and are reported apart as
  `engineering4`. The rows with `"batch": 5` (electrochemistry, corrosion science, additive
  manufacturing, photovoltaics, mechanical engineering: materials and machines whose words MeSH also
  writes in a biological sense) were written after the first 45 had been tuned on, before the product
  was run on them, and are reported apart as `engineering5`. The rows with `"batch": 6` (hydrology, marine
  engineering, food science, textile engineering, mining, semiconductor devices, cryptography, supply
  chains, sports engineering, wood science: fields the first 50 lack, several with words MeSH holds in a
  medical sense such as discharge, vessel, high pressure) were written after the first 50 had been tuned
  on, before the product was run on them, and are reported apart as `engineering6`. The rows with
  `"batch": 7` (ids E61-E70: structural engineering, petroleum engineering, optics and photonics,
  railway engineering, ocean energy, electrocatalysis, tourism studies, welding and joining, control
  engineering, archaeology: fields the first 60 lack, several with words MeSH holds in a medical sense
  such as column, oxygen, attitude, copper, radar) were written after the first 60 had been tuned on,
  before the product was run on them, and are reported apart as `engineering7`. The rows with
  `"batch": 8` (ids E71-E80: wind energy, metallurgy, glaciology, human-computer interaction, polymer
  science, computer networking, soil science, law, atmospheric science, power electronics: fields the
  first 70 lack, several with words MeSH holds in a medical sense such as hydrogen, embrittlement, carbon,
  traction, interaction) were written after the first 70 had been tuned on, before the product was run
  on them, and are reported apart as `engineering8`. The rows with `"batch": 9` (ids E81-E90: coastal
  engineering, ceramic engineering, rock mechanics, information retrieval, hydraulic engineering, heat
  transfer, accounting, demography, fisheries science, electrical machines: fields the first 80 lack,
  several with words MeSH holds in a medical sense such as fertility, audit, heat, sinks, retrieval) were
  written after the first 80 had been tuned on, before the product was run on them, and are reported
  apart as `engineering9`. The rows with `"batch": 10` (ids E91-E100: volcanology, forestry, space
  engineering, hydrogen energy, linguistics, speech processing, satellite navigation, pavement
  engineering, computer architecture, wildlife ecology: fields the first 90 lack, several with words MeSH
  holds in a medical sense such as speech, mortality, forests, birds, neural networks) were written after
  the first 90 had been tuned on, before the product was run on them, and are reported apart as
  `engineering10` The rows with `"batch": 11` (ids E101-E110: combustion science,
  microelectromechanical systems, plasma physics, membrane science, automotive engineering, oceanography,
  fluid mechanics, sociology of work, music technology, photocatalysis: fields the first 100 lack, several
  with words MeSH holds in a medical sense such as ammonia, hydrogen, membranes, automobile driving,
  personal autonomy, music) were written after the first 100 had been tuned on, before the product was
  run on them, and are reported apart as `engineering11`. The rows with `"batch": 12` (ids E111-E120:
  agronomy, entomology, superconductivity, analytical chemistry, geomatics, particle physics, mineral
  processing, glass science, construction management, statistics: fields the first 110 lack, several with
  words MeSH holds in a medical sense such as nitrogen, insecticide resistance, moths, pesticides, water,
  glass) were written after the first 110 had been tuned on, before the product was run on them, and are
  reported apart as `engineering12`. The rows with `"batch": 13` (ids E121-E130: crystallography,
  numerical analysis, distributed systems, bioenergy, paleontology, nanotechnology, industrial engineering,
  mechanism design, epistemology, database systems: fields the first 120 lack, several with words MeSH
  holds in a medical sense such as microalgae, gold, metal nanoparticles, Raman spectrum analysis,
  databases) were written after the first 120 had been tuned on, before the product was run on them, and
  are reported apart as `engineering13`. The rows with `"batch": 14` (ids E131-E140: antenna engineering,
  compiler construction, limnology, packaging engineering, urban planning, signal processing, energetic
  materials, scientometrics, formal methods, evolutionary game theory: fields the first 130 lack, several
  with words MeSH holds in a medical sense such as phosphorus, lakes, cellulose, oxygen, food packaging,
  software, cooperative behavior) were written after the first 130 had been tuned on, before the product
  was run on them, and are reported apart as `engineering14`. The rows with `"batch": 15` (ids E141-E150:
  structural health monitoring, prognostics and health management, intelligent transportation systems,
  smart grids, irrigation engineering, emission control, process systems engineering, concrete
  technology, machining, machine learning security: fields the first 140 lack, with long noun compounds
  such as remaining useful life prediction, non-intrusive load monitoring, and several words MeSH holds
  in a medical sense such as vibration, diagnosis, irrigation, nitrogen oxides, bacteria, healing) were
  written after the first 140 had been tuned on, before the product was run on them, and are reported
  apart as `engineering15` (0.450 strict block coverage as written, block coverage 0.450; no expert
  heading, so no MeSH figure).
- Descriptions (`description_dev.jsonl` beside this module, written for this project): 96 research
  descriptions as researchers type them into the product (one to three sentences: who they are, what
  they study, the outcomes and designs they want; the first 24: 22 in English, 2 in Chinese), each with
  the PubMed query a medical librarian would sign for it (listed outcomes and designs left out, as in a review
  search). Review titles are what the other splits hold; this is the path every user takes, where a
  sentence about the user, a wish for randomised trials or a list of outcomes must not become a
  required block. Written in the seventeenth session before the product was run on them; a
  development split (`descriptions`).
  The rows with `"batch": 2` (ids D25-D48: 16 in English, 4 in Chinese, 4 in Chinese with English terms
  or abbreviations; surgery, anaesthesia, radiology, dermatology, veterinary medicine, occupational
  therapy, midwifery, public-health policy, pharmacology, pharmacogenetics, microbiology, health
  services research, medical education, toxicology, sports medicine, prison health, gastroenterology,
  child mental health, rehabilitation, cardiology, neonatology, primary care and cancer genetics) were
  written in the eighteenth session after the first 24 had been tuned on and before the product was
  run on them, in phrasings the first batch lacks ("I'm curious whether ...", "Our lab investigates
  ...", "Looking for studies on ...", questions, the user's role, a wish for a design, a comparator, an
  outcome list, a population with an age and a setting). They are reported apart as `descriptions2`.
  The rows with `"batch": 3` (ids D49-D72: 16 in English, 4 in Chinese, 4 in Chinese with English terms
  or abbreviations; nephrology, endocrinology, haematology, infectious-disease epidemiology, care homes,
  oral surgery, audiology, speech and language therapy, podiatry, global health, maternal nutrition,
  urology, transplantation, critical care, sleep medicine, addiction, palliative care, nursing,
  paediatric surgery, infectious disease, digital health, implementation science and prenatal genetics)
  were written in the nineteenth session after the first 48 had been tuned on and before the product
  was run on them, in phrasings the first two batches lack ("We're trying to find out ...", "is A or B
  better", a population by age range and country, "in the context of", "among X who Y", a diagnostic
  accuracy question with its reference standard, a prognostic factor, brackets inside a long sentence,
  a description that starts with its outcomes, a negated population, hyphenated compounds, British
  spellings). They are reported apart as `descriptions3`.
  The rows with `"batch": 4` (ids D73-D96: 16 in English, 4 in Chinese, 4 in Chinese with English terms
  or abbreviations; rheumatology, neurology (stroke, multiple sclerosis, epilepsy), otolaryngology,
  orthopaedics, reproductive medicine, vaccinology, health informatics, wound care, bariatric surgery,
  tropical medicine, psychology, neonatal nursing, pain medicine, hepatology, respiratory medicine,
  optometry, forensic medicine, nutrition in sport, men's health and cardiac surgery) were written in the
  twentieth session after the first 72 had been tuned on and before the product was run on them, in
  phrasings the first three batches lack (abbreviations never expanded, lay words such as "water pills"
  and "bed sores", brand names beside generics, "over-65s", "vs" and slashes, "e.g." lists, semicolon
  notes, a grant or degree context before the topic, "I'm interested in whether ...", a closing
  exclusion, two questions in one description, a misspelt drug name). They are reported apart as
  `descriptions4`.
  The rows with `"batch": 5` (ids D97-D120: 16 in English, 4 in Chinese, 4 in Chinese with English terms
  or abbreviations; interventional cardiology, nephrology, dermatology, ophthalmology, emergency
  medicine, palliative care, occupational health, global health, addiction, sleep medicine, clinical
  genomics, infection control, speech and language therapy, One Health, health economics, medical
  education, urology, environmental epidemiology, haematology, anaesthesia, transplantation,
  endocrinology, radiology and critical care) were written in the twenty-first session after the first
  96 had been tuned on and before the product was run on them, in phrasings the first four batches
  have little of (unexpanded clinical acronyms such as PCI, CKD, T2DM, ICU, OSA and "pts", brand names,
  "vs" and slashes, "e.g." lists, a PhD context, "I'm interested in whether ...", a closing exclusion,
  two questions in one, a hurried typo, a named process after a named thing such as "stent
  thrombosis" and "graft failure", "X for Y", cost-effectiveness, Chinese rates such as 住院率 and
  死亡率, 比较X和Y, meta分析). They are reported apart as `descriptions5`.
  The rows with `"batch": 6` (ids D121-D144: 16 in English, 4 in Chinese, 4 in Chinese with English terms
  or abbreviations; obstetric anaesthesia, pharmacovigilance, prison health, disability, nutrition
  policy, digital health, the nursing workforce, pain medicine, toxicology, vaccine hesitancy,
  antimicrobial stewardship, sports medicine, tropical medicine, health services research,
  rheumatology, neonatology, dentistry, transplantation, audiology, rehabilitation, infectious disease,
  obstetrics and digital mental health) were written in the twenty-second session after the first 120
  had been tuned on and before the product was run on them, in phrasings the first five batches have
  little of (a question before its context, "in the context of", "among", "with or without", "compared
  with usual care", two populations, a drug class with its members in brackets, a time frame such as
  "since 2015", "I don't need animal studies", British spellings, lay words beside technical ones,
  Chinese 对…的影响, 在…中的应用, 与…的关系, 基于, and mixed terms such as GLP-1受体激动剂). They are
  reported apart as `descriptions6`.
  The rows with `"batch": 7` (ids D145-D168: 16 in English, 4 in Chinese, 4 in Chinese with English terms
  or abbreviations; falls prevention, psychiatry, maternal mental health, paediatric surgery,
  orthopaedics, gastroenterology, hepatology, oncology nursing, radiotherapy, genetic counselling,
  environmental health, school health, homelessness, LGBTQ health, refugee health, military health,
  midwifery, nutrition, pharmacy practice, rural health, health economics, implementation science,
  physiotherapy and One Health) were written in the twenty-third session after the first 144 had been
  tuned on and before the product was run on them, in phrasings the first six batches have little of (a
  question before its context, "I'm interested in whether", "looking at", "among", "in people with",
  "compared with usual care", two outcomes, a drug class with its members in brackets, "since 2010",
  "RCTs only", "not interested in children", British spellings, unexpanded acronyms such as NAFLD, IBD
  and PTSD, Chinese 对…的影响, 在…中的应用, 与…的关系, 基于, …的危险因素, and mixed terms such as
  SGLT2抑制剂 and ICU患者). They are reported apart as `descriptions7`.
  The rows with `"batch": 8` (ids D169-D192: 16 in English, 4 in Chinese, 4 in Chinese with English terms
  or abbreviations; otolaryngology, sexual health, global surgery, neurosurgery, vascular surgery,
  allergy, forensic medicine, health policy, pathology, transfusion medicine, travel medicine, plastic
  surgery, eating disorders, gynaecology, clinical pharmacology, nuclear medicine, infection control,
  acupuncture, perinatal epidemiology, geriatrics, oncology, neonatal nursing, child and adolescent
  psychiatry and tuberculosis) were written in the twenty-fourth session after the first 168 had been
  tuned on and before the product was run on them, in phrasings the first seven batches have little of
  (a label before a colon, "I'm interested in whether", "looking at", "among", "compared with", two
  outcomes, a drug class with its members in brackets, a harm asked about ("risk of anaphylaxis", "risk
  of upper GI bleeding"), "since 2010", "RCTs only", "not interested in children", British spellings,
  unexpanded acronyms such as PrEP, MSM, EVAR, NPWT and PSMA, Chinese 对…的影响, 在…中的应用, 与…的关系,
  基于, …的影响因素, …的危险因素, and mixed terms such as PD-1抑制剂 and NICU早产儿). They are reported
  apart as `descriptions8`.
  The rows with `"batch": 9` (ids D193-D216: 16 in English, 4 in Chinese, 4 in Chinese with English terms
  or abbreviations; fields the first eight batches have at most once: thoracic surgery, clinical
  psychology, paediatrics, stroke medicine, cardiac rehabilitation, tobacco control, menopause medicine,
  virology, humanitarian health, family planning, hand surgery, injury prevention, preventive
  cardiology, urogynaecology, prehospital care, Indigenous health, traditional Chinese medicine, student
  mental health, burns care, maternal-fetal medicine, respiratory therapy, anticoagulation,
  psycho-oncology and reproductive endocrinology) were written in the twenty-fifth session after the
  first 192 had been tuned on and before the product was run on them, in phrasings the first eight
  batches have little of (a question before its context, "I'm interested in whether", "looking at",
  "among", "in people with", "compared with usual care", two outcomes, a harm asked about ("acute kidney
  injury", "muscle symptoms", "adverse events"), a drug class with examples, lay words beside technical
  ones ("heart attack"), "since 2015", "RCTs only", "not interested in children", British spellings,
  unexpanded acronyms such as CBT, CPR, HBeAg, PTSD and IUD, device names (LUCAS, AutoPulse), Chinese
  对…的影响, 与…的关系, 在…中的应用, and mixed terms such as HFNC, CKD, DOAC, MBSR and PCOS). They are
  reported apart as `descriptions9`.
  The rows with `"batch": 10` (ids D217-D240: 16 in English, 4 in Chinese, 4 in Chinese with English terms
  or abbreviations; fields the first nine batches have at most once: lactation, orthodontics, HIV
  medicine, pharmacoepidemiology, dementia care, paediatric oncology, perioperative medicine, primary
  care, pulmonary rehabilitation, child nutrition, vascular medicine, andrology, developmental
  paediatrics, mental health nursing, endocrine surgery, suicide prevention, diabetes nursing,
  orthogeriatrics, swallowing disorders, antenatal care, paediatric endocrinology, intensive care
  rehabilitation, structural heart disease and cellular therapy) were written in the twenty-sixth session
  after the first 216 had been tuned on and before the product was run on them, in phrasings the first
  nine batches have little of (a label before a colon, a question before its context, "I'm interested in
  whether", "looking at", "among", "in people with", "compared with usual care", two outcomes, a harm
  asked about ("euglycaemic ketoacidosis", "weight gain", "hip fracture"), a drug class with examples, lay
  words beside technical ones ("tongue-tie (ankyloglossia)", "low calcium (hypocalcaemia)"), "since
  2015", "RCTs only", "not interested in adult survivors", British spellings, unexpanded acronyms such
  as ART, CRP, COPD, PAD and PDE5, Chinese 对…的影响, 与…的关系, 在…中的应用, 基于, …的危险因素, and mixed
  terms such as GLP-1受体激动剂, ICU患者, TAVR, DLBCL and CRS). They are reported apart as `descriptions10`.
  The rows with `"batch": 11` (ids D241-D264: 16 in English, 4 in Chinese, 4 in Chinese with English terms
  or abbreviations; fields the first ten batches have at most once: hepatology transplant, sports
  cardiology, dental public health, rheumatology imaging, addiction pharmacotherapy, speech-language
  pathology, occupational therapy, tropical dermatology, bariatric surgery, geriatric pharmacy, travel
  medicine, burns care, paediatric anaesthesia, interventional radiology, paediatric emergency medicine,
  transgender health, neuro-oncology, clinical nutrition, obesity medicine, peritoneal dialysis, medical
  retina, sepsis, paediatric allergy and endoscopy) were written in the twenty-seventh session after the
  first 240 had been tuned on and before the product was run on them, in phrasings the first ten batches
  have little of ("Does X ...?", "evidence on", "what's known about", "X vs Y" with a question after a
  colon or dash, "in kids", "I'm an SLP", a harm asked about ("VTE, MI, stroke", "new or worsening
  reflux"), a setting ("in the ED", "care home residents", "remote island communities"), an exclusion
  ("excluding adults"), two populations ("trans women and trans men", "DCD and DBD grafts"), doses ("125 mg
  twice daily"), lay words beside technical ones ("skin sores", "lots of medicines (polypharmacy)"),
  British spellings, unexpanded acronyms such as NMP, ECG, RA, OUD, PAE, TURP and BPH, Chinese 对…的影响,
  与…的关系, …的危险因素, …的疗效, and mixed terms such as 抗VEGF药物, OIT, ESD and EMR). They are reported
  apart as `descriptions11`.
  The rows with `"batch": 12` (ids D265-D288: 16 in English, 4 in Chinese, 4 in Chinese with English terms
  or abbreviations; fields the first eleven batches have at most once: vascular surgery, perinatal
  psychiatry, adolescent sleep medicine, palliative oncology, otology, prison health, veterinary-human
  zoonoses, neurorehabilitation, forensic psychiatry, radiation protection, health economics of screening,
  hand surgery, paediatric endocrinology, transfusion medicine, podiatry, hyperbaric medicine,
  hepatobiliary surgery, paediatric respiratory medicine, musculoskeletal ageing, occupational lung
  disease, diabetes in pregnancy, neurovascular medicine, psychopharmacology and paediatric infectious
  disease) were written in the twenty-eighth session after the first 264 had been tuned on and before the
  product was run on them, in phrasings the first eleven batches have little of ("Is there evidence that
  ...", "I want papers on", "compared with", "X or Y ...?", "how accurate are ...", "in older folks",
  "worried about", lay words beside technical ones ("heart malformations (Ebstein's anomaly)", "feel less
  sleepy in the day", "vets"), a harm (cataract, heart malformations), a setting ("in prisons", "cath lab
  staff", "secure hospitals"), exclusions ("Not interested in EVAR", "adults, not children"), two
  interventions compared (collagenase and needle fasciotomy, tenecteplase and alteplase), British
  spellings, unexpanded acronyms such as AAA, EVAR, SSNHL, SGA, MI and HCR-20, Chinese …的比较, …的疗效,
  与…的关系, …的危险因素, and mixed terms such as GDM, TRD, esketamine and RSV). They are reported apart as
  `descriptions12`.
  The rows with `"batch": 13` (ids D289-D312: 16 in English, 4 in Chinese, 4 in Chinese with English terms
  or abbreviations; fields the first twelve batches have at most once: neonatal surgery, geriatric
  dentistry, addiction in adolescents, eating disorders in men, paediatric cardiology, occupational
  dermatology, diving medicine, paediatric nephrology, paediatric ophthalmology, climate and health,
  perioperative medicine, neglected tropical diseases, spinal surgery, geriatric oncology, bleeding
  disorders, rhinology, high-altitude medicine, Helicobacter pylori, autism, diabetic complications,
  retinopathy of prematurity, resuscitation, cardio-nephrology and cardio-oncology) were written in the
  twenty-ninth session after the first 288 had been tuned on and before the product was run on them, in
  phrasings the first twelve batches have little of ("Does X actually help", "What do we know about",
  "in men who", "Should X be stopped before", "which works better once treatment stops", "X not
  responding to", lay words beside technical ones ("bedwetting", "lazy eye", "bigorexia", "e-cigs"), a
  harm (aspiration, serious toxicity), a setting ("in care homes", "during heatwaves"), an exclusion ("Not
  post-op sinus surgery patients"), two interventions compared (enuresis alarm and desmopressin, infliximab
  and a second IVIG, decompression alone and with fusion), British spellings, unexpanded acronyms such as
  PFO, MDA, DEC, NRT and IVIG, Chinese …的效果, …的疗效比较, 对…的影响, …的发生率和危险因素, drug names in
  Chinese (乙酰唑胺, 伏诺拉生, 甲钴胺), and mixed terms such as ROP, ECPR, ESRD, apixaban and PD-1). They
  are reported apart as `descriptions13`.
  The rows with `"batch": 14` (ids D313-D336: 16 in English, 4 in Chinese, 4 in Chinese with English terms
  or abbreviations; fields the first thirteen batches have at most once: lactation, tuberculosis, otology,
  andrology, forensic psychiatry, dementia care, pharmacoepidemiology, cellular therapy, pulmonary
  rehabilitation, vaccinology, orthodontics, sexual health, humanitarian health, neurorehabilitation,
  injury prevention, paediatric oncology, menopause medicine, acupuncture, sepsis, paediatric respiratory
  medicine, nuclear medicine, interventional radiology, endoscopy and psychopharmacology) were written in
  the thirtieth session after the first 312 had been tuned on and before the product was run on them, in
  phrasings the first thirteen batches have little of ("Does X actually help mums of", "How well do X
  predict", "Have X laws reduced", "in people who have", "no drug studies please", "what about
  resistance", lay words beside technical ones ("glue ear", "mums", "kids", "heart damage", "braces"), a
  harm (cardiac side effects, root resorption, second cancers), a setting ("medium secure units", "care
  homes", "camps or low-resource settings"), two interventions compared (grommets and watchful waiting,
  aligners and fixed braces, home- and centre-based rehab), British spellings, unexpanded acronyms such as
  PPI, ICANS, CAR-T, RSV, HRZE and HCR-20, Chinese …与…风险, 能否降低病死率, …的效果, drug names in Chinese
  (维生素C, 氢化可的松), and mixed terms such as PSMA PET/CT, TACE, lenvatinib, ESD, EMR, LST, TRD and
  esketamine). They are reported apart as `descriptions14`.
  The rows with `"batch": 15` (ids D337-D360: 16 in English, 4 in Chinese, 4 in Chinese with English terms
  or abbreviations; fields the first fourteen batches have at most once: space medicine, occupational lung
  disease, sleep in shift workers, palliative care in heart failure, adolescent substance use, dermatology
  of skin of colour, oral surgery, paediatric nephrology, sports cardiology, forensic odontology, aviation
  medicine, delirium care, patient blood management, vestibular medicine, pelvic health physiotherapy,
  myopia control, paediatric dentistry, gestational diabetes, thyroid surgery, hypertension in primary
  care, metabolic liver disease, neurointervention, neonatal pain and sleep surgery) were written in the
  thirty-first session after the first 336 had been tuned on and before the product was run on them, in
  phrasings the first fourteen batches have little of ("Is there evidence that", "I'm trying to find",
  "What works for", "in people who", "Is X worth doing to", "Not bed-rest analogue studies", "not ICU, not
  surgical patients", lay words beside technical ones ("wisdom tooth", "kids", "leaking urine",
  "short-sightedness", "dizzy when they roll over in bed", "quartz kitchen benchtops"), a harm (dry
  socket, AF in athletes), a setting (the ISS, night shifts, medical wards, schools), two interventions
  compared (bright light and melatonin, rituximab and tacrolimus, Epley and Brandt-Daroff, atropine and
  ortho-k, tranexamic acid and hydroquinone), British spellings (manoeuvre, anaemic, programmes),
  unexpanded acronyms such as ISS, PRF, AF, HELP, IV, BPPV and ortho-k, Chinese …预防…的效果, …与…的比较,
  对…的效果, and mixed terms such as GLP-1, semaglutide, NASH, EVT, heel prick, CPAP, OSA and HGNS). They
  are reported apart as `descriptions15`
  (0.368 / 0.587 / 0.653 as written: MeSH recall, precision, strict block coverage).
  The rows with `"batch": 16` (ids D361-D384: 16 in English, 4 in Chinese, 4 in Chinese with English terms
  or abbreviations; fields the first fifteen batches have at most once: paediatric ophthalmology,
  zoonoses, clinical genetics, clinical toxicology, transplant psychiatry, pharmacy practice, fluency
  disorders, wound care, high-altitude medicine, sickle cell disease, HIV prevention, endourology,
  paediatric ENT, crystal arthritis, maternal-fetal medicine, tropical dermatology, pharmacy,
  speech-language pathology, neglected tropical diseases, optometry, bleeding disorders, child and
  adolescent psychiatry, antimicrobial stewardship and metabolic liver disease) were written in the
  thirty-second session after the first 360 had been tuned on and before the product was run on them, in
  phrasings the first fifteen batches have little of ("Does X actually help", "What's known about", "any
  trials comparing", "In patients on", "X rather than Y", "can they be stopped without", "does the dose
  matter", lay words beside technical ones ("lazy eye", "snipping a tongue-tie", "stammer", "not taking
  their medication", "reflux coming back", "vets"), a harm (vomiting and anaphylactoid reactions, impetigo),
  a setting (care homes, sub-Saharan Africa, Pacific islands, Everest Base Camp, usual GP care), two
  interventions compared (patching and binocular games, SNAP and the 21-hour regimen, total contact casting
  and a removable boot, acetazolamide and ibuprofen, Lidcombe and RESTART-DCM, 150 mg and 75 mg aspirin),
  British spellings (hypercholesterolaemia, anaemia, paediatric), unexpanded acronyms such as PPIs, AMS,
  MSM, PrEP, SNAP and GP, Chinese …对…的影响, …是否有效, …后的不良反应, …与…风险, and mixed terms such as
  emicizumab, FVIII, ADHD, methylphenidate, ICU, procalcitonin, GLP-1 and MASLD). They are reported apart
  as `descriptions16`
  (0.493 / 0.692 / 0.705 as written: MeSH recall, precision, strict block coverage).
  The rows with `"batch": 17` (ids D385-D408: 16 in English, 4 in Chinese, 4 in Chinese with English terms
  or abbreviations; fields the first sixteen batches have at most once or not at all: cardiac
  rehabilitation, urogynaecology, paediatric allergy immunotherapy, palliative radiotherapy, infectious
  disease prevention in prisons, nutrition in elderly care, laryngology, surgical safety, nurse education,
  alcohol-related liver disease, neuro-ophthalmology, stroke rehabilitation, developmental paediatrics,
  perinatal epidemiology, respiratory medicine, vascular medicine, adolescent medicine, rhinology,
  orthogeriatrics, teleophthalmology, cardio-oncology prevention, cervical cancer prevention, obstetric
  anaesthesia and pharmacogenetics in cardiology) were written in the thirty-third session after the first
  384 had been tuned on and before the product was run on them, in phrasings the first sixteen batches
  have little of ("Is there evidence that", "How well does", "compared with doing nothing", "for people
  who", "In low-resource settings", "what do the trials show", lay words beside technical ones ("leak
  urine when they cough or sneeze", "heart attack", "can't get to sleep", "bone mets", "vaping"), a harm
  (anaphylaxis, long-term harms of melatonin), a setting (prison reception, care homes, low-resource
  settings, the ward, schools), an exclusion ("excluding robot-assisted training"), two interventions
  compared (home-based and centre-based rehab, prednisolone and pentoxifylline, high-flow oxygen and NIV,
  high- and low-fidelity simulation, single- and multi-fraction radiotherapy), an outcome that defines the
  topic (birth weight, post-thrombotic syndrome, delirium, hypotension), British spellings (programme,
  paediatric, anaesthesia), unexpanded acronyms such as IIH, DVT, COPD, NIV and WHO, Chinese 能否减少…,
  …的疗效, …与…的关系, …中的准确性, and mixed terms such as anthracycline, ACEI, HPV, spinal anaesthesia,
  phenylephrine, CYP2C19 and PCI). They are reported apart as `descriptions17`
  (0.409 / 0.660 / 0.660 as written: MeSH recall, precision, strict block coverage).
  The rows with `"batch": 18` (ids D409-D432: 16 in English, 4 in Chinese, 4 in Chinese with English terms
  or abbreviations; fields the first seventeen batches have at most once or not at all: falls prevention,
  fluency disorders, suicide prevention, eating disorders, sickle cell disease, homelessness, tobacco
  control, swallowing disorders, vestibular medicine, genetic counselling, men's health, LGBTQ health,
  rural health, delirium care, old age psychiatry, lymphoedema surgery, transplant nursing, autism, refugee
  health, school health, allergy, colorectal surgery, radiotherapy and pharmacogenetics) were written in
  the thirty-fourth session after the first 408 had been tuned on and before the product was run on them,
  in phrasings the first seventeen batches have little of ("people who are homeless and use drugs",
  "children who stammer", "people who self-harm", "women who develop arm lymphoedema", "does X help with
  Y", "what works for", "in the community", lay words beside technical ones ("broken hip", "dizzy
  spells", "plain packs", "low T", "heart attack", "A&E", "care homes"), a harm (stroke and death on
  antipsychotics, aspiration pneumonia, heart attack on testosterone), a setting (care homes, rural areas,
  sub-Saharan Africa, A&E, the community), an exclusion-like "alone" ("decongestive therapy alone"), two
  active interventions compared (tai chi and strength and balance classes, Lidcombe and parent-child
  interaction therapy, family-based treatment and CBT, thickened fluids and free water, telephone and
  face-to-face counselling, telerehab and in-person physio), an outcome that defines the topic (falls,
  delirium, repeat self-harm, cardiovascular events, xerostomia, SJS/TEN), British spellings (anaemia,
  lymphoedema, counselling, standardised, programme), unexpanded acronyms such as CBT, PrEP, A&E, SLIT,
  ERAS, IMRT and SJS/TEN, Chinese 提高…的干预措施, …的效果, …与…的关系, …的心理干预, and mixed terms such
  as SLIT, ERAS, IMRT and HLA-B*5801). They are reported apart as `descriptions18`
  (0.482 / 0.725 / 0.743 as written: MeSH recall, precision, strict block coverage).
  The rows with `"batch": 19` (ids D433-D456: 16 in English, 4 in Chinese, 4 in Chinese with English terms
  or abbreviations; fields the first eighteen batches have at most once or not at all: periodontology,
  breast surgery, global mental health, student mental health, stroke medicine, resuscitation, heart
  failure nursing, cancer survivorship, neurogastroenterology, osteoarthritis care, insomnia, glaucoma,
  tinnitus, brain injury, global newborn health, hernia surgery, liver cancer surgery, diabetic kidney
  disease, paediatric infectious disease, exercise in older people, intensive care rehabilitation, thoracic
  radiology, reproductive endocrinology and diabetes pharmacotherapy) were written in the thirty-fifth
  session after the first 432 had been tuned on and before the product was run on them, in phrasings the
  first eighteen batches have little of: research questions as questions ("Is X associated with Y in
  Z?", "Do X reduce Y in people with Z?", "Is X delivered online as effective as face-to-face X?"), "the
  role of", "predictors of", "barriers and facilitators to", "long-term outcomes after", "in low- and
  middle-income countries", lay words beside technical ones ("gum disease", "ringing in the ears",
  "deaths", "babies", "returning to work"), delivery modes ("app-based", "delivered online", "group-based",
  "one-to-one", "nurse-led", "delivered by lay health workers"), two active interventions compared
  (implant-based and autologous flap reconstruction, group exercise and one-to-one physiotherapy, online and
  face-to-face CBT-I, laser trabeculoplasty and eye drops, laparoscopic and open mesh repair, SGLT2
  inhibitors and GLP-1 receptor agonists), an outcome that defines the topic (preterm birth, readmissions,
  chronic pain, recurrence, persistent symptoms), Chinese …的危险因素, …的预后因素, …的发生率, 基于…的, and
  mixed terms such as ICU, CT, PCOS, SGLT2 and GLP-1). They are reported apart as `descriptions19`
  (0.472 / 0.837 / 0.715 as written: MeSH recall, precision, strict block coverage).
"""

from __future__ import annotations

import gzip
import json
from dataclasses import dataclass
from pathlib import Path

from evals.paths import DATA

BOOLEAN_QUERIES = DATA / "boolean_queries"
SUSPECT_SEED_TOPIC = "42"
LIBRARIAN_DEV = Path(__file__).with_name("librarian_dev.jsonl")
ENGINEERING_DEV = Path(__file__).with_name("engineering_dev.jsonl")
DESCRIPTION_DEV = Path(__file__).with_name("description_dev.jsonl")
# the rows written after earlier ones were tuned on, reported apart by their batch
_LATER_BATCHES = {
    "librarian2": ("librarian", 2),
    "librarian3": ("librarian", 3),
    "librarian4": ("librarian", 4),
    "librarian5": ("librarian", 5),
    "librarian6": ("librarian", 6),
    "librarian7": ("librarian", 7),
    "librarian8": ("librarian", 8),
    "librarian9": ("librarian", 9),
    "librarian10": ("librarian", 10),
    "librarian11": ("librarian", 11),
    "librarian12": ("librarian", 12),
    "librarian13": ("librarian", 13),
    "librarian14": ("librarian", 14),
    "librarian15": ("librarian", 15),
    "librarian16": ("librarian", 16),
    "librarian17": ("librarian", 17),
    "librarian18": ("librarian", 18),
    "librarian19": ("librarian", 19),
    "librarian20": ("librarian", 20),
    "librarian21": ("librarian", 21),
    "librarian22": ("librarian", 22),
    "librarian23": ("librarian", 23),
    "librarian24": ("librarian", 24),
    "librarian25": ("librarian", 25),
    "librarian26": ("librarian", 26),
    "librarian27": ("librarian", 27),
    "librarian28": ("librarian", 28),
    "librarian29": ("librarian", 29),
    "librarian30": ("librarian", 30),
    "librarian31": ("librarian", 31),
    "librarian32": ("librarian", 32),
    "librarian33": ("librarian", 33),
    "librarian34": ("librarian", 34),
    "librarian35": ("librarian", 35),
    "librarian36": ("librarian", 36),
    "librarian37": ("librarian", 37),
    "engineering2": ("engineering", 2),
    "engineering3": ("engineering", 3),
    "engineering4": ("engineering", 4),
    "engineering5": ("engineering", 5),
    "engineering6": ("engineering", 6),
    "engineering7": ("engineering", 7),
    "engineering8": ("engineering", 8),
    "engineering9": ("engineering", 9),
    "engineering10": ("engineering", 10),
    "engineering11": ("engineering", 11),
    "engineering12": ("engineering", 12),
    "engineering13": ("engineering", 13),
    "engineering14": ("engineering", 14),
    "engineering15": ("engineering", 15),
    "descriptions2": ("descriptions", 2),
    "descriptions3": ("descriptions", 3),
    "descriptions4": ("descriptions", 4),
    "descriptions5": ("descriptions", 5),
    "descriptions6": ("descriptions", 6),
    "descriptions7": ("descriptions", 7),
    "descriptions8": ("descriptions", 8),
    "descriptions9": ("descriptions", 9),
    "descriptions10": ("descriptions", 10),
    "descriptions11": ("descriptions", 11),
    "descriptions12": ("descriptions", 12),
    "descriptions13": ("descriptions", 13),
    "descriptions14": ("descriptions", 14),
    "descriptions15": ("descriptions", 15),
    "descriptions16": ("descriptions", 16),
    "descriptions17": ("descriptions", 17),
    "descriptions18": ("descriptions", 18),
    "descriptions19": ("descriptions", 19),
}
# each reported split -> the topics' own split it is drawn from (a later batch is reported inside its
# base split too)
BASE_SPLIT: dict[str, str] = {
    "seed_no42": "seed",
    **{name: base for name, (base, _) in _LATER_BATCHES.items()},
}
SPLITS = (
    "clef_train",
    "clef_test",
    "seed",
    "seed_no42",
    "librarian",
    "librarian2",
    "librarian3",
    "librarian4",
    "librarian5",
    "librarian6",
    "librarian7",
    "librarian8",
    "librarian9",
    "librarian10",
    "librarian11",
    "librarian12",
    "librarian13",
    "librarian14",
    "librarian15",
    "librarian16",
    "librarian17",
    "librarian18",
    "librarian19",
    "librarian20",
    "librarian21",
    "librarian22",
    "librarian23",
    "librarian24",
    "librarian25",
    "librarian26",
    "librarian27",
    "librarian28",
    "librarian29",
    "librarian30",
    "librarian31",
    "librarian32",
    "librarian33",
    "librarian34",
    "librarian35",
    "librarian36",
    "librarian37",
    "engineering",
    "engineering2",
    "engineering3",
    "engineering4",
    "engineering5",
    "engineering6",
    "engineering7",
    "engineering8",
    "engineering9",
    "engineering10",
    "engineering11",
    "engineering12",
    "engineering13",
    "engineering14",
    "engineering15",
    "descriptions",
    "descriptions2",
    "descriptions3",
    "descriptions4",
    "descriptions5",
    "descriptions6",
    "descriptions7",
    "descriptions8",
    "descriptions9",
    "descriptions10",
    "descriptions11",
    "descriptions12",
    "descriptions13",
    "descriptions14",
    "descriptions15",
    "descriptions16",
    "descriptions17",
    "descriptions18",
    "descriptions19",
)


@dataclass(frozen=True)
class Topic:
    id: str
    collection: str  # "clef", "seed", "librarian", "engineering" or "descriptions"
    split: str  # "clef_train", "clef_test", "seed", "librarian", "engineering" or "descriptions"
    title: str  # what the product is given: a review title, or a researcher's description
    expert_query: str
    batch: int = 1  # 2 and up for the rows written after the earlier batches were tuned on

    @property
    def suspect(self) -> bool:
        return self.collection == "seed" and self.id == SUSPECT_SEED_TOPIC

    def in_split(self, split: str) -> bool:
        if split == "seed_no42":
            return self.split == "seed" and not self.suspect
        if split in _LATER_BATCHES:
            return (self.split, self.batch) == _LATER_BATCHES[split]
        return self.split == split


def _jsonl(path: Path) -> list[dict]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def load_topics(
    root: Path = BOOLEAN_QUERIES,
    librarian: Path = LIBRARIAN_DEV,
    engineering: Path = ENGINEERING_DEV,
    descriptions: Path = DESCRIPTION_DEV,
) -> list[Topic]:
    """All 72 CLEF, 40 Seed, 414 librarian, 150 engineering and 456 description topics, in that order and in
    file order."""
    sources = {
        row["topic_id"]: row["source"]
        for row in _jsonl(root / "clef_tar" / "clef_tar_2018_task2_topics.jsonl.gz")
    }
    topics = []
    for row in _jsonl(root / "clef_tar" / "CLEF-2018.jsonl"):
        source = sources[row["topicid"]]
        split = {"2018-TAR/Task2/Training": "clef_train", "2018-TAR/Task2/Testing": "clef_test"}[source]
        topics.append(Topic(row["topicid"], "clef", split, row["title"].strip(), row["original_query"]))
    for row in _jsonl(root / "seed_collection" / "bgr_seed_collection.jsonl"):
        topics.append(Topic(str(row["topicid"]), "seed", "seed", row["title"].strip(), row["Edited search"]))
    return (
        topics
        + librarian_topics(librarian)
        + engineering_topics(engineering)
        + description_topics(descriptions)
    )


def librarian_topics(path: Path = LIBRARIAN_DEV) -> list[Topic]:
    """The 304 titles and queries written by hand for the review kinds CLEF lacks (see the docstring)."""
    return _written_here(path, "librarian")


def engineering_topics(path: Path = ENGINEERING_DEV) -> list[Topic]:
    """The 50 titles outside medicine and their blocks (see the module docstring)."""
    return _written_here(path, "engineering")


def description_topics(path: Path = DESCRIPTION_DEV) -> list[Topic]:
    """The 48 researchers' descriptions and the queries a librarian would sign (see the docstring)."""
    return _written_here(path, "descriptions")


def _written_here(path: Path, collection: str) -> list[Topic]:
    """The rows of a file of titles (or descriptions) and queries written for this project: one split,
    in batches."""
    return [
        Topic(
            row["id"],
            collection,
            collection,
            (row.get("title") or row["description"]).strip(),
            row["query"],
            row.get("batch", 1),
        )
        for row in _jsonl(path)
    ]

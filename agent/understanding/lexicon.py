"""Word classes of the rules fallback (`agent.understanding.rules`): grammar and generic research vocabulary.

These are not a domain dictionary: no term is translated or expanded here. They say which words end a
phrase (function words, verbs), which word before a phrase is a cue for its slot ("using", "in", 基于,
针对), and which kinds of head noun each slot takes (nominalised tasks, people and units of study,
measurement nouns and suffixes, model nouns, signal nouns, outcome nouns, settings), in English and
Chinese. Each set is written as one whitespace-separated string.
"""

from __future__ import annotations

import re

from agent.language.text import word_set as words  # each list below is one whitespace-separated string


def pairs(text: str) -> dict[str, str]:
    """ "verb:noun verb:noun ..." as a mapping."""
    return dict(item.split(":", 1) for item in text.split())


# ----------------------------------------------------------------------------------------------
# English word classes (grammar and generic research vocabulary, not a domain dictionary)
# ----------------------------------------------------------------------------------------------

EN_FUNCTION = words(
    """
    i we my our me us you your he she his her it its they them their this that these those there
    here a an the am is are was were be been being have has had do does did will would can could
    should may might must shall not no nor only also very more most less least such both each
    every other some any all than then so as at by for from in into of on onto to with within
    without via through across between among amongst about over under upon and or but if whether
    while during after before toward towards which who whom whose what where when how why e.g
    i.e etc currently mainly particularly especially specifically namely new novel different
    various several many much few little well against following regarding concerning including excluding
    alone together plus below above beyond instead rather itself themselves himself herself ourselves
    along around near off alongside inside outside beneath behind beside out up onward onwards
    because although though unless despite since until throughout
    anything something everything nothing anyone someone everyone anybody somebody everybody nobody
    abroad elsewhere
    """
)
# "X as a biomarker": nouns of the role a measured feature plays
MARKER_NOUNS = words("biomarker marker indicator predictor proxy surrogate signature")
# stance and sentence adverbs: they qualify the sentence, never a noun phrase ("ideally randomised
# trials", "typically older adults"), so they end a phrase even before a modifier
SENTENCE_ADVERBS = words(
    """
    ideally preferably typically usually generally primarily possibly probably potentially
    presumably recently mostly largely often finally additionally ultimately eventually
    especially particularly specifically mainly currently also perhaps maybe
    just merely simply solely already
    """
)
# determiners: a word after a noun that opens another noun phrase ("we use the ...")
DETERMINERS = words(
    """
    a an the this that these those our my their its his her your each every some any both several
    many various such no
    """
)
# prepositions after a past participle make it a verb ("characterised by", "isolated from")
EN_PREPOSITIONS = words(
    """
    by with from in at on via through using during for to into as under over against across among
    within without after before between upon onto toward towards throughout
    """
)
# "X changes Y" (not "changes in Y"): an effect verb only with an object after it
CHANGE_VERBS = words("change changes changed alter")
# nouns of a study design: "an eye-tracking study of X" says the method
STUDY_NOUNS = words("study studies")
# cues after which a plural agent noun names people ("in bilingual readers")
PEOPLE_CUES = words("in among amongst")
# action nouns whose "of" names what is acted on ("introduction of peanut" -> "peanut introduction")
EN_ACTION_HEADS = words(
    """
    introduction administration supplementation intake consumption injection infusion use
    implementation adoption withdrawal discontinuation
    """
)
# "X can be used to ...": X is the method
PASSIVE_USE = words("used applied employed utilized utilised leveraged")
BE_FORMS = words("be is are was were been being")
# comparatives before "than"/"to" end a phrase ("X better than Y")
COMPARATIVES = words("better worse superior inferior preferable")
# words ending in "-ed" that are no past participles
ED_NOT_PARTICIPLES = words("hundred sacred kindred naked wicked rugged ragged beloved")
# verbs that are as often nouns in a compound ("social media use"): after a noun that names no people
# they are the noun (other verbs that are nouns in a compound, "association study", "liver function
# tests", are kept when MeSH knows the compound; "physical tests" is no concept)
NOUN_OR_VERB = words("use work reports records logs")
# plural nouns that are also third-person verbs ("tests", "measures"): nouns when no object follows
PLURAL_NOUN_OR_VERB = words("tests measures studies needs")

# past participles of measuring and analysing: "with" after them names the method ("measured with
# accelerometers"); after other participles it names what is given ("treated with"); "compared with"
# compares methods as often as treatments, so it keeps the method cue
MEASURING_VERBS = words(
    """
    measured recorded collected obtained acquired analysed analyzed estimated assessed evaluated
    characterised characterized imaged scanned quantified monitored tested detected modelled modeled
    profiled sequenced genotyped surveyed captured tracked classified predicted determined identified
    examined investigated explored observed calibrated validated trained fitted computed simulated
    calculated mapped studied screened stained labelled labeled visualised visualized performed
    conducted equipped instrumented done processed extracted derived decoded scored graded compared
    sampled trapped counted weighed logged confirmed
    """
)
# participles after which "with" names a condition of people ("patients diagnosed with X")
CONDITION_PARTICIPLES = words("diagnosed infected affected colonized colonised born presenting living")
# Verbs (and verb forms) of research descriptions: they end a phrase; some of them are cues.
EN_VERBS = words(
    """
    work working works worked study studying studies studied investigate investigating
    investigates investigated explore exploring explores explored examine examining examines
    examined develop developing develops developed build building builds built aim aims aiming
    aimed want wants wanted focus focusing focuses focused focusing interested looking look
    trying try tries apply applying applies applied employ employing employs employed leverage
    leveraging combine combining combines combined compare comparing compares compared use using
    uses used utilize utilizing utilise utilising recorded measured collected obtained acquired
    derived extracted analyzed analysed propose proposing proposed plan planning planned test
    testing tests tested assess assessing assesses want hope hoping seek seeking seeks need
    needs require requires include including includes based relies relying rely understand
    understanding understands determine determining determines evaluate evaluating evaluates
    identify improve improving improves reduce reducing reduces increase increasing increases
    prevent preventing prevents treat treating treats enable enabling enables allow allowing
    allows help helping helps make making conducted conduct conducting perform performing
    performed estimated assessed evaluated quantified modelled modeled ignore print forget
    disregard reveal repeat know knows knew known think thinks thought believe believes see sees
    seen saw find finds found show shows showed shown suggest suggests suggested get gets got give
    gives gave given take takes took taken seem seems seemed become becomes became remain remains
    remained keep keeps kept lead leads led affect affects affected cause causes caused relate
    relates depend depends vary varies differ differs occur occurs occurred happen happens
    wonder wondering know hope ask asks asking asked report reports reported like likes measure
    measures measuring randomise randomize randomises randomizes
    """
)

# Past forms of listed verbs that take what they are about after a preposition only ("focused on X"):
# with no preposition after them they have no object, so before a noun they are its adjective
PREPOSITIONAL_PAST_FORMS = words("focused focussed")

# Gerunds that name a task when they open a phrase ("decoding speech" -> "speech decoding"); not
# "measuring": what is measured is the outcome ("measuring propylene selectivity and conversion")
EN_TASK_GERUNDS = pairs(
    """
    decoding:decoding predicting:prediction forecasting:forecasting classifying:classification
    detecting:detection estimating:estimation segmenting:segmentation reconstructing:reconstruction
    identifying:identification localizing:localization localising:localisation tracking:tracking
    monitoring:monitoring diagnosing:diagnosis screening:screening generating:generation
    designing:design synthesizing:synthesis synthesising:synthesis recognizing:recognition
    recognising:recognition quantifying:quantification modeling:modeling modelling:modelling
    simulating:simulation optimizing:optimization optimising:optimisation
    characterizing:characterization characterising:characterisation mapping:mapping
    inferring:inference discovering:discovery controlling:control
    translating:translation retrieving:retrieval imputing:imputation clustering:clustering
    ranking:ranking summarizing:summarization annotating:annotation profiling:profiling
    tracing:tracing extracting:extraction counting:counting transcribing:transcription
    calibrating:calibration downscaling:downscaling interpolating:interpolation
    """
)

# The same verbs in their base form ("to detect lung nodules" -> "lung nodule detection").
EN_TASK_VERBS = pairs(
    """
    decode:decoding predict:prediction forecast:forecasting classify:classification detect:detection
    estimate:estimation segment:segmentation reconstruct:reconstruction identify:identification
    localize:localization localise:localisation track:tracking monitor:monitoring diagnose:diagnosis
    screen:screening generate:generation synthesize:synthesis synthesise:synthesis
    recognize:recognition recognise:recognition quantify:quantification simulate:simulation
    optimize:optimization optimise:optimisation characterize:characterization
    characterise:characterisation map:mapping infer:inference discover:discovery
    translate:translation retrieve:retrieval impute:imputation annotate:annotation
    summarize:summarization trace:tracing extract:extraction count:counting transcribe:transcription
    calibrate:calibration downscale:downscaling interpolate:interpolation
    """
)


def _both_spellings(table: dict[str, str]) -> dict[str, str]:
    """The table with the other spelling of every "-ize"/"-ise" verb and "-ization"/"-isation" noun
    ("summarize" gives "summarise": "summarisation")."""
    out = dict(table)
    swap = {"iz": "is", "is": "iz"}
    for verb, noun in table.items():
        for a, b in swap.items():
            if a + "e" in verb or a + "ing" in verb:
                other = verb.replace(a + "e", b + "e").replace(a + "ing", b + "ing")
                out.setdefault(other, noun.replace(a + "ation", b + "ation"))
    return out


EN_TASK_GERUNDS = _both_spellings(EN_TASK_GERUNDS)
EN_TASK_VERBS = _both_spellings(EN_TASK_VERBS)


def _third_person(verb: str) -> str:
    if verb.endswith("y") and verb[-2:-1] not in "aeiou":
        return verb[:-1] + "ies"
    if verb.endswith(("s", "sh", "ch", "x", "z")):
        return verb + "es"
    return verb + "s"


# "a model that predicts X", "which detects X": the third-person forms after a relative pronoun
EN_TASK_VERBS_THIRD = {_third_person(verb): noun for verb, noun in EN_TASK_VERBS.items()}
# the words after which a task verb's base form is the verb ("to detect", "we classify", "can predict")
TASK_VERB_SUBJECTS = words("to we i they can could may might will would should")
# task verbs whose base form is as often a noun ("heat maps and count data", "a forecast")
NOUN_TASK_VERBS = words("forecast estimate segment track monitor screen map trace extract count")
# auxiliaries that open a question ("Can X predict Y?", "Does X reduce Y?")
QUESTION_AUXILIARIES = words("can could does do did will would may might is are")

EN_TASK_HEADS = frozenset(
    set(EN_TASK_GERUNDS.values())
    | set(
        words(
            """
            decoding prediction forecast forecasting classification detection estimation
            segmentation reconstruction identification localization localisation tracking monitoring
            diagnosis prognosis screening generation design synthesis recognition quantification
            modeling modelling simulation optimization optimisation characterization
            characterisation mapping inference discovery control translation retrieval imputation
            clustering ranking summarization annotation profiling evaluation assessment analysis
            surveillance stratification phenotyping genotyping triage planning navigation
            understanding comprehension production perception restoration repair prevention
            treatment management delivery transfer conversion degradation catalysis storage
            separation fabrication characterization valuation attribution identification matching
            alignment tracing stimulation answering training grasping manipulation locomotion
            captioning parsing reasoning scoring processing grading labelling labeling
            adsorption hydrogenation polymerization polymerisation functionalization
            functionalisation electrolysis summarization summarisation warning
            """
        )
    )
)

# materials and built structures: what is studied when a property of it is measured (a study object,
# though no people: "the compressive strength of concrete", 钢筋混凝土|锈蚀行为). Parts of structures and
# machines (beam, pier, blade, bearing, ...) were tried: dev English rose, the held-out new English cases
# lost 0.007 precision ("column", "wall", "bearing" name parts of the body and of exercises too)
EN_MATERIAL_HEADS = words(
    """
    material battery alloy catalyst polymer composite film nanoparticle crystal semiconductor
    membrane bridge building slab pavement tunnel dam girder mortar brick timber masonry coating
    concrete steel glass ceramic fibre fiber hydrogel aerogel electrolyte cathode anode graphene
    nanotube nanowire nanosheet oxide zeolite perovskite cement asphalt
    """
)
EN_POPULATION_HEADS = (
    words(
        """
    patient participant subject volunteer child adolescent adult infant newborn neonate woman
    man elderly people individual person population cohort resident worker student household
    firm farmer smoker user consumer mouse rat macaque monkey primate animal human zebrafish
    cell organoid plant crop tree species bird insect fish bacterium strain country region city
    county state municipality hospital school company enterprise bank teacher nurse physician
    clinician survivor case control twin family mother father pregnancy veteran athlete driver
    pedestrian employee investor migrant refugee community village donor recipient carrier men
    women children people mice neuron player learner caregiver parent owner visitor tourist passenger
    customer voter citizen inpatient outpatient pupil toddler youth teenager girl boy baby senior
    retiree pensioner midwife surgeon dentist pharmacist practitioner trainee apprentice undergraduate
    entrepreneur smallholder landowner fisherman herder pastoralist prisoner inmate offender
    victim immigrant commuter cyclist borrower taxpayer shareholder
    counsellor counselor coach aide officer mentor tutor doula therapist educator instructor
    navigator servant official bureaucrat
    cattle cow calf heifer steer bull sheep ewe lamb goat pig sow piglet gilt poultry chicken hen
    broiler horse mare foal dog cat livestock herd flock colony
    cultivar landrace variety accession genotype isolate seedling sapling
    cancer carcinoma tumour tumor glioma leukemia leukaemia lymphoma melanoma disease disorder
    syndrome diabetes infection illness
    """
    )
    | EN_MATERIAL_HEADS
)

# closed compounds ending in a people, organism or material noun ("schoolchildren", "farmworkers",
# "honeybees", "earthworms", "superalloys", "nanocomposites")
STUDIED_COMPOUND_ENDINGS = (
    "children",
    "workers",
    "parents",
    "mothers",
    "fathers",
    "girls",
    "boys",
    "bees",
    "flies",
    "worms",
    "alloys",
    "composites",
    "polymers",
    "materials",
    "crystals",
    "catalysts",
    "particles",
)

EN_MEASUREMENT_HEADS = words(
    """
    recording imaging scan sensor electrode array survey questionnaire interview sequencing
    assay spectroscopy microscopy tomography diffraction data dataset record trial experiment
    observation image photograph radiograph micrograph photo camera satellite telemetry accelerometer census registry sample biopsy
    test testing measurement probe implant microarray cytometry chromatography spectrometry
    electrophysiology biopsy smartphone variable benchmark corpus database scattering radar lidar
    sonar scanner gauge logger transect quadrat audit report imagery footage transcript log trace swab
    tag core
    """
)
EN_MEASUREMENT_SUFFIXES = (
    "graphy",
    "gram",
    "scopy",
    "metry",
    "imaging",
    "sensing",
    "omics",
    "seq",
    "barcoding",
)

EN_ALGORITHM_HEADS = words(
    """
    network model learning regression algorithm filter classifier transformer estimator
    clustering analysis simulation optimization inference method framework architecture
    autoencoder encoder decoder tree boosting embedding randomization matching difference-in-differences
    equation approach technique attention lstm theory calculation kriging bootstrapping bootstrap
    bagging stacking fine-tuning finetuning pretraining pre-training prompting smoothing augmentation
    distillation regularization regularisation quantization pruning ensemble solver heuristic
    metaheuristic emulator optimizer optimiser decomposition
    """
)

# modifiers that make a method an analysis rather than an instrument ("probabilistic projections")
ALGORITHM_MODIFIERS = words(
    """
    probabilistic stochastic bayesian statistical computational numerical neural deep generative
    discriminative supervised unsupervised semi-supervised self-supervised linear nonlinear
    non-linear logistic multivariate multivariable hierarchical mixed-effects data-driven
    agent-based finite-element heuristic evolutionary predictive econometric parametric
    nonparametric non-parametric regression
    """
)

# the modifiers that name a paradigm of machine learning ("transfer learning", "Q-learning"); "learning"
# after another modifier is what people or animals do ("blended learning", "service-learning",
# "e-learning", "social learning"), an activity or an outcome, not an algorithm
LEARNING_PARADIGMS = words(
    """
    machine deep reinforcement transfer federated contrastive representation metric ensemble active
    few-shot zero-shot one-shot multi-task multitask instance multiple-instance multi-instance continual
    incremental curriculum imitation adversarial dictionary manifold kernel feature q meta
    """
)

# acronyms of instruments and assays of the sciences (read as a suffix: "qPCR", "RT-PCR", "P-XRD"),
# and of analyses and models; ambiguous ones (MS, SAR, GC, SEM as a model) are left out
MEASUREMENT_ACRONYMS = (
    "XRD",
    "XPS",
    "NMR",
    "SEM",
    "TEM",
    "AFM",
    "FTIR",
    "EIS",
    "PCR",
    "ELISA",
    "HPLC",
    "DXA",
    "IMU",
    "RFID",
    "LIDAR",
    "GPS",
    "ICP-OES",
)
ALGORITHM_ACRONYMS = words("PCA LDA ICA DFT CFD FEA FEM RL ML DL MCMC ABM DID RDD PLS PLS-DA GWR SEM-PLS XGB")

EN_FEATURE_HEADS = words(
    """
    activity oscillation power band rhythm spike potential connectivity amplitude phase
    coherence spectrum feature waveform signal envelope entropy variability biomarker expression
    gamma alpha beta theta delta firing dynamics burst methylation radiomics factor determinant
    predictor
    """
)

EN_OUTPUT_HEADS = words(
    """
    position trajectory acoustics phoneme word text sentence label outcome survival mortality
    risk yield price return emission property intention kinematics movement velocity force
    speech spelling readmission recurrence incidence prevalence response consumption income
    expenditure employment innovation productivity hesitancy uptake adherence compliance occupancy
    abundance richness diversity biomass gap growth reduction improvement decline resistance
    susceptibility investment saving savings earning earnings loss gain retention suitability
    composition function quality stability toxicity efficiency strength durability
    roughness conductivity permeability behaviour behavior attitude satisfaction wellbeing
    well-being burnout fatigue achievement trend shift symptom visit admission hospitalization
    hospitalisation robustness overfitting forgetting bias injury fall error
    """
)

EN_CONTEXT_HEADS = words(
    """
    interface application setting rehabilitation therapy care surgery policy environment system
    prosthesis prosthetic device context scenario practice industry sector market economy
    ecosystem climate agriculture education trade intervention programme program forest
    landscape scene field farm plot site station river lake catchment watershed basin wetland
    grassland estuary reef coast coastline ward unit clinic garden orchard greenhouse pasture
    rangeland cropland meadow plateau mountain valley island delta desert tundra savanna savannah
    woodland peatland
    """
)
# kinds of land and water units ("upland streams", "paired catchments", "smallholder farms"): where
# organisms or people are studied they are the setting; with nothing else studied, the units studied
LAND_UNIT_HEADS = words(
    """
    forest landscape farm plot river lake catchment watershed basin wetland grassland estuary reef
    coast coastline garden orchard pasture rangeland cropland meadow valley island delta woodland
    peatland stream aquifer stand volcano glacier soil lagoon pond
    """
)
# adjectives that describe the setting rather than the task ("invasive", "closed-loop")
EN_CONTEXT_ADJECTIVES = words(
    """
    invasive non-invasive noninvasive minimally-invasive intracranial implanted implantable
    clinical real-time closed-loop open-loop online offline wearable portable
    """
)
# hyphenated tokens that are adjectives ("ECoG-based"), not compounds naming a thing
ADJECTIVAL_HYPHEN = re.compile(
    r"-(?:based|driven|related|dependent|specific|free|like|induced|associated|level|scale|term|wide|"
    r"time|loop|invasive|resolution|order|guided|aware|informed|derived|evoked|mediated|sensitive)$",
    re.IGNORECASE,
)

GENERIC_WORDS = words(
    """
    study research project work approach method system paper thesis topic field area problem
    question goal aim purpose way use effect role impact performance result results time part
    kind type lab group team phd postdoc hello hi hey thanks thank please dear biomarker working idea ideas thing things literature review application
    applications risk risks factor factors efficacy effectiveness safety feasibility evidence papers
    articles publications data early late outcome outcomes insight insights mechanistic scale
    indicator indicators marker markers proxy proxies surrogate surrogates comparison comparisons
    predictor predictors determinant determinants correlate correlates difference differences
    master's masters master msc bachelor's doctoral dissertation recent better mechanism mechanisms
    change changes rise rises increase increases decrease decreases decline declines
    turn baseline follow-up
    """
)
# Numbers written as words ("one to six hours", "two locations"): a count or a span, never a concept
NUMBER_WORDS = words(
    """
    one two three four five six seven eight nine ten eleven twelve twenty thirty forty fifty hundred
    hundreds thousand thousands million millions dozen dozens half once twice
    """
)
# Units of time and repetition: counted ("two weeks", "three seasons", "1000 cycles") they give a span or
# a schedule of the study, no concept
TIME_UNITS = words("second minute hour day week month year decade century season semester cycle")
# words that place a counted span of time on the calendar ("the last 400 years", "the past two
# decades", "the first 12 months"): with the count and its unit they are the span, alone no concept
TIME_SPAN_ORDINALS = words("last past next previous preceding first following recent final initial")

# heads that say only what kind of thing a phrase names: the words before them decide its slot
GENERIC_HEADS = words("system systems approach approaches framework frameworks tool tools pipeline platform")

# Role nouns of a study's design: in a copula they name the slot of the other side ("Outcomes are X",
# "X is a potential confounder"); they are no concept themselves.
ROLE_NOUNS: dict[str, str] = {
    word: slot
    for slot, names in (
        ("output_target", "outcome endpoint end-point target label metric mediator objective"),
        ("signal_feature", "input predictor feature"),
        ("context", "exposure intervention comparator confounder covariate moderator setting"),
        ("subject_population", "population participant cohort"),
        ("method_measurement", "benchmark dataset instrument"),
    )
    for word in names.split()
}
# Nouns of a complement that only judges ("X is a major problem", "an open question", "of interest")
META_NOUNS = words(
    """
    problem question issue concern challenge aim goal plan idea interest limitation gap focus
    priority point thing something option possibility hypothesis assumption caveat check variable
    """
)
# Adjectives that only rank or judge the noun after them ("secondary outcomes", "a known issue")
EVALUATIVE_ADJECTIVES = words(
    """
    main major minor key open potential possible known important central primary secondary
    tertiary big real particular specific further additional other exploratory principal
    """
)
# Adjectives by which a question judges its subject ("Is X effective for Y", "X is safe in Z", "A is
# superior to B"): after a noun, before a preposition or the clause's end, the predicate
PREDICATE_ADJECTIVES = words(
    """
    effective ineffective efficacious cost-effective safe unsafe beneficial harmful useful helpful feasible
    acceptable accurate reliable valid superior inferior better worse comparable equivalent noninferior
    non-inferior
    """
)
# Adverbs of how often something is done ("assessed daily with X"): between a participle and its
# preposition they leave the verb's reading of the preposition as it is
FREQUENCY_ADVERBS = words(
    "daily weekly monthly hourly nightly yearly annually fortnightly quarterly once twice"
)
# Predicate adjectives that judge a test or a measure ("Is ultrasound accurate for X"), not an
# intervention or exposure
TEST_JUDGING_ADJECTIVES = words("accurate reliable valid")
# Heads that alone name no concept ("the model", "a classifier", "the baselines"): what precedes them does
BARE_HEADS = words(
    "model classifier baseline control label system approach framework tool programme program data"
)
# Modal verbs: the word after one is a verb ("we would pool the trials", "data would come from X")
MODALS = words("would will could can should may might must shall")
# Reflexive pronouns: never part of a noun phrase ("households themselves")
REFLEXIVES = words("itself themselves himself herself ourselves myself yourself yourselves oneself")
# Words that make a preposition with "to" after them ("next to", "due to", "prior to")
BEFORE_TO_PREPOSITIONS = words("next close due according prior adjacent owing relative")
# adjectives of one scale of degree: "to" between two of them spans a range of grades that modifies the
# next noun ("moderate to severe dementia", "mild to moderate asthma", "low to middle income")
GRADE_ADJECTIVES = words(
    "mild moderate severe low middle high medium intermediate minimal slight light heavy extreme"
)
# nouns of a measure whose "to" or "in" names its end or state, within one concept ("time to
# repair", "distance to roads", "time in range")
MEASURE_TO_NOUNS = words("time distance proximity")
# generic heads written after a kind of care ("midwifery care models", "integrated care programmes",
# "collaborative care approach"): the care is the concept, the head only says it is organised
CARE_GENERIC_HEADS = words(
    "model models approach approaches programme programmes program programs scheme schemes"
)
# heads of the kind of care a generic head may follow
CARE_HEADS = words("care services")
# nouns of how care is organised whose "of" names the care, within one concept ("continuity of
# midwifery care", "coordination of care", "integration of services")
CARE_PROPERTY_NOUNS = words("continuity coordination integration fragmentation")
# gerunds of moving somewhere, whose "to" names where, within one concept ("returning to work", "going
# back to school", "transitioning to adult care", "commuting to work"): the place is the gerund's end,
# not a second phrase
MOVEMENT_GERUNDS = words(
    "returning going coming getting moving travelling traveling commuting walking cycling transitioning "
    "migrating relocating"
)
# plural units of time that with "of" measure a duration ("days of antibiotic therapy", "hours of sleep")
TIME_SPAN_UNITS = words("minutes hours days weeks months years")
# nouns of a change whose "in" names what changes ("the change in eGFR", "trends in obesity")
CHANGE_NOUNS = words("change trend variation disparity difference increase decrease decline reduction shift")
# Nouns of quantity whose "of" names what is counted ("the number of falls"): alone they are no term
QUANTITY_NOUNS = words("number numbers proportion proportions percentage share amount amounts rate rates")
# Heads of a measured physical or counted quantity ("indoor temperature", "transmembrane pressure", "dimple
# diameter", "step counts"): a variable, never an intervention or a setting
MEASURED_QUANTITY_HEADS = words(
    """
    temperature pressure concentration level diameter density thickness size length width depth
    height weight mass volume count duration frequency humidity salinity intensity speed content
    date porosity photoperiod
    """
)
# Heads of a quantity of one thing per another ("injection rate", "red:blue light ratios"): a variable
# when a clause makes it act on an outcome; alone a rate is as often the outcome ("mortality rate")
PER_QUANTITY_HEADS = words("rate ratio")
# Adjectives that give a quantity's value ("at low temperatures", "under high pressure"): a condition set
# by the study (the setting), not the variable measured
VALUE_ADJECTIVES = words(
    "low lower high higher elevated reduced different varying extreme ambient room moderate"
)
# Words that name a kind of study or evidence ("a meta-analysis", "panel evidence"): no outcome
STUDY_KIND_WORDS = words(
    """
    meta-analysis meta-analyses review reviews analysis analyses protocol evidence cohort cohorts
    trial trials study studies survey surveys series report reports experiment experiments
    """
)
# Verbs after which "by"/"across" names what the subject varies with ("differ by city size")
VARYING_VERBS = words("differ differs differed vary varies varied stratified stratify grouped")
# Participles of causing in a passive ("X can be attributed to Y", "X is driven by Y"): X the outcome
CAUSAL_PARTICIPLES = words(
    """
    attributed attributable explained caused driven determined influenced affected shaped mediated
    modified moderated triggered induced
    """
)
# Participles of judging in a passive of measuring ("performance is judged by X")
JUDGING_PARTICIPLES = words("judged rated appraised gauged ascertained verified checked benchmarked")
# Units after a number ("30 months", "10 mm"): a size or a time, not a concept
UNITS = words(
    """
    mm cm m km nm um µm mg g kg ml l h hr hrs min s sec hours hour days day weeks week months month
    years year decades percent ppm ppb kda kw mw gw kwh mwh °c
    """
)

# words that do not change the cue of the phrase after them ("using the", "in our")
TRANSPARENT = words(
    """
    and or plus a an the our my their its this these those both each several many various different
    new novel such other more
    """
)
ZH_TRANSPARENT = words("和 与 及 以及 或 或者 的 并 其")

METHOD_CUES = words(
    """
    using use uses used with via through by from employing applying leveraging combining
    utilizing utilising based recorded measured collected obtained acquired derived
    conduct conducts conducting perform performs performing run runs plan plans
    """
)
POPULATION_CUES = frozenset({"in", "among", "amongst", "of"})
# cues after which a condition is who is studied ("in tuberculosis", "adults with asthma")
# ("recovery after stroke": the people who had it are studied)
CONDITION_POPULATION_CUES = frozenset({"in", "among", "amongst", "with", "after", "following"})
# effect words of association, whose "with" names the other side ("its association with salt intake")
RELATION_NOUNS = words("association associations link links relationship relationships relation relations")
# adjectives that only say which kind of effect an estimate is ("the causal effect of X on Y", "the
# average treatment effect"); not those that name an outcome ("adverse effects", "long-term effects")
EFFECT_ADJECTIVES = words(
    "causal potential differential average heterogeneous net total direct indirect combined independent joint relative possible"
)
EFFECT_WORDS = words(
    """
    effect effects impact impacts influence influences role association associations link links
    relationship relationships relation relations
    """
)


def inflections(base_forms: str) -> frozenset[str]:
    """Base forms with their third-person and past forms: "accumulate" -> accumulates, accumulated.

    Not the "-ing" forms: those are as often nouns ("deep learning", "signal processing").
    """
    out: set[str] = set()
    for base in base_forms.split():
        out.add(base)
        if base.endswith("e"):
            out |= {base + "s", base + "d"}
        elif base.endswith("y") and base[-2:-1] not in "aeiou":
            out |= {base[:-1] + "ies", base[:-1] + "ied"}
        elif base.endswith(("s", "sh", "ch", "x", "z")):
            out |= {base + "es", base + "ed"}
        else:
            out |= {base + "s", base + "ed"}
    return frozenset(out)


# Common verbs of research prose that are rarely the nouns of a topic: they end a phrase
# ("microplastics accumulate in fish", "our lab designs electrolytes"). Grammar, not a domain list;
# words as often nouns ("control", "spread", "design", "model", "test") are left out.
EN_COMMON_VERBS = inflections(
    """
    accumulate disrupt suppress look emerge arise evolve interact contribute correspond compare relate
    differ depend tend appear seem exist persist remain become occur happen involve require allow
    enable facilitate explain describe determine reveal demonstrate indicate suggest propose argue
    assume expect seek try attempt intend wish wonder examine explore investigate analyse analyze
    assess evaluate quantify estimate calculate compute validate verify confirm replicate extend
    apply adapt adopt implement deploy develop build construct create produce generate synthesize
    synthesise fabricate integrate combine incorporate leverage exploit employ utilize utilise rely
    concentrate address tackle solve overcome mitigate alleviate respond react interfere compete
    collaborate participate engage recruit enroll enrol observe collect gather obtain acquire
    extract derive identify characterize characterise classify predict detect diagnose recognize
    recognise distinguish discriminate isolate purify modify regulate manage treat cure heal
    recover survive stabilize stabilise degrade decompose dissolve absorb emit convert transform
    transcribe encode decode bind activate deactivate trigger induce mediate connect correlate
    understand know teach educate inform influence shape drive promote inhibit prevent protect
    reduce increase decrease improve enhance worsen impair affect alter modulate boost lower raise
    limit restrict contaminate infect transmit confer exhibit display possess contain carry harbor
    harbour undergo receive experience agree disagree outperform leave quit stay empower come
    originate
    """
)
# "-ing" forms of light verbs: alone they are the verb of a clause the phrase cutter left behind ("Does
# doing X help", "those living alone", "does closing it help"), never the concept searched
LIGHT_VERB_GERUNDS = words(
    "doing having getting going coming living closing making taking giving putting letting"
)
# Past forms before a noun are adjectives ("infected patients", "associated factors"): they end a
# phrase only after one has begun.
EN_PAST_FORMS = frozenset(w for w in EN_COMMON_VERBS if w.endswith("ed"))
# Past participles not in "-ed": before a preposition they are verbs ("posts written by adults",
# "maize grown under drought", "samples drawn from X")
IRREGULAR_PARTICIPLES = words(
    """
    written taken drawn grown shown known born chosen driven made kept held brought caught sold fed
    spent worn thrown frozen spoken broken hidden eaten undertaken withdrawn sought bought taught
    """
)
# "-ly" words that are adjectives or nouns, not adverbs.
LY_NOT_ADVERBS = words(
    "elderly early daily weekly monthly yearly quarterly hourly nightly family assembly anomaly supply italy friendly costly deadly lonely orderly"
)

# Verbs of effect: "X reduces Y" names an exposure or intervention X and an outcome Y.
EFFECT_VERBS = words(
    """
    affect affects affected affecting reduce reduces reduced reducing improve improves improved
    improving increase increases increased increasing decrease decreases decreased decreasing
    prevent prevents prevented cause causes caused influence influences influenced alter alters
    altered modulate modulates modulated impair impairs impaired enhance enhances enhanced worsen
    worsens worsened lower lowers lowered raise raises raised protect protects protected shape
    shapes shaped drive drives driven promote promotes promoted inhibit inhibits inhibited
    mitigate mitigates mitigated alleviate alleviates alleviated disrupt disrupts disrupted
    suppress suppresses suppressed shorten shortens lengthen lengthens prolong prolongs accelerate
    accelerates attenuate attenuates exacerbate exacerbates aggravate aggravates amplify amplifies
    weaken weakens strengthen strengthens hinder hinders facilitate facilitates stimulate stimulates
    hasten hastens dampen dampens counteract counteracts undermine undermines restore restores
    avoid avoids avoided slows slowed help helps helped
    """
)


def _regular_past(base: str) -> str:
    """ "shorten" -> "shortened", "restore" -> "restored", "amplify" -> "amplified"."""
    if base.endswith("e"):
        return base + "d"
    if base.endswith("y") and base[-2:-1] not in set("aeiou"):
        return base[:-1] + "ied"
    return base + "ed"


def _irregular_past(base: str, verbs: frozenset[str]) -> bool:
    """Whether `verbs` lists an irregular past of `base` ("drive": "driven")."""
    return any(f != base and f.startswith(base[:-1]) and f.endswith("en") for f in verbs)


# "whether triage shortened time to surgery": every verb of effect listed with its third person has
# its past too (a verb listed with an irregular past, "drive ... driven", keeps only that)
EFFECT_VERBS = EFFECT_VERBS | {
    _regular_past(base)
    for form in EFFECT_VERBS
    if form.endswith("s")
    for base in (form[:-1], form[:-2], form[:-3] + "y")
    if base in EFFECT_VERBS and not _irregular_past(base, EFFECT_VERBS)
}
# Population heads that name no people or organisms (what a Chinese people word must not end in)
EN_NOT_PEOPLE = (
    words("country region city county state municipality hospital school company enterprise bank firm")
    | words("pregnancy village community")
    | EN_MATERIAL_HEADS
)
# English renderings of Chinese words that name no concept alone (变化 "change", 模式 "mode")
EN_GENERIC_RENDERINGS = words("change changes mode pattern way means situation condition level")
# People words too generic to name who is studied on their own ("population pharmacokinetics")
EN_GENERIC_PEOPLE = words(
    "patient participant subject individual person people population human case control"
)
# Condition words among the population heads: a condition after an outcome cue is the outcome.
EN_CONDITION_HEADS = words(
    """
    cancer carcinoma tumour tumor glioma leukemia leukaemia lymphoma melanoma disease disorder syndrome
    diabetes infection illness
    """
)
# Heads of the signs of a condition ("depressive symptoms"): what people "with" them have
SIGN_HEADS = words("symptom sign complaint")
# Measures whose "of" introduces an outcome ("the risk of X", "the incidence of X").
OUTCOME_MEASURES = words(
    """
    risk risks incidence prevalence rate rates onset severity progression recurrence occurrence
    odds likelihood probability symptoms burden mortality factors predictors determinants correlates
    causes drivers marker markers biomarker biomarkers indicator indicators
    """
)
CONTEXT_CUES = frozenset({"for", "toward", "towards", "enabling", "enable", "allowing", "under"})
# cues after which a condition is the setting or the exposure ("during COVID-19"), not the outcome
SETTING_CONDITION_CUES = frozenset({"during", "amid", "exposure"})
# Latin words that make one modifier with "in"/"ex" before them ("in situ X-ray scattering")
LATIN_AFTER_IN = words("situ vivo vitro silico utero ovo")
OUTPUT_CUES = frozenset(
    {"into", "predict", "predicting", "reconstruct", "reconstructing", "generate", "generating", "output"}
)
OUTCOME_CUES = frozenset(
    {"improve", "improving", "reduce", "reducing", "increase", "increasing", "prevent", "preventing"}
    # what is measured is an outcome ("we measure X", "to quantify X")
    | {"measure", "measures", "measuring", "quantify", "quantifies", "quantifying"}
    | {"assess", "assesses", "assessing", "score", "scores", "scoring"}
    # what is described or explained is what the study observes ("describe injury patterns")
    | {"describe", "describes", "describing", "explain", "explains", "explaining"}
    # what studies report is their outcome ("cohort studies reporting aphasia")
    | {"reporting", "report", "reports"}
    # what is driven is the response ("warming and nutrients driving bloom frequency")
    | {"driving", "drive", "drives"}
)

# ----------------------------------------------------------------------------------------------
# Chinese word classes
# ----------------------------------------------------------------------------------------------

# verbs by which a researcher says what the study looks at ("关注老年人群", "聚焦于农村留守儿童",
# "着眼于学龄儿童", "围绕深海沉积物", "解析肿瘤微环境"): the words that introduce the object of study are
# cues, no part of the term after them (关注 "attention" is not a word of "older group")
ZH_FOCUS_VERBS = words(
    """
    关注 聚焦 聚焦于 着眼 着眼于 立足 立足于 围绕 侧重 侧重于 着重 着重于 专注 专注于 瞄准 锁定 重点关注
    解析 剖析
    """
)
# words that are nouns or verbs elsewhere (重点 "key point", 集中 "concentrate") and adverbs of degree before
# a verb of attention ("重点关注", "集中关注"): there they belong to the cue
ZH_FOCUS_ADVERBS = words("重点 集中 持续 更加")
# (伴, 伴有, 伴发 and 合并 join a condition to another the same people have: "糖尿病伴高血压患者",
# "房颤合并CKD"; 伴侣 "partner" and 合并症 "comorbidity" are words of their own in the segmentation)
ZH_COMORBIDITY_LINKS = words("伴 伴有 伴发 合并")
ZH_BREAKS = (
    ZH_FOCUS_VERBS
    | words(
        """
    我 我们 本人 笔者 咱们 你 你们 他们 本 该 这 这些 那些 其 它 是 在 的 地 得 了 着 过 和 与 及 以及 或 或者 并 并且 而 而且
    对 对于 从 向 把 将 以 为 被 于 中 上 下 等 等等 期间 时期 进行 开展 从事 致力于 旨在 希望 想 想要 要 需要
    研究 主要 关于 方面 一种 一个 一些 项目 工作 方向 课题 问题 目前 正在 如何 怎样 能否 是否 可以 能够 来 去
    做 实现 提高 改善 降低 减少 增加 探索 探讨 探究 揭示 阐明 阐释 分析 分析了 建立 构建 开发 评价 比较 考察 研究了 通过 基于 采用
    使用 利用 借助 运用 结合 应用 用 针对 面向 用于 应用于 服务于 以便 以期 从而 进而 及其 之间 之 所 也 都
    还 又 很 更 最 自动 自动地 同时 分别 显著 有效地 准确地 快速 进一步 尤其 特别 来自 源自 之间 找 寻找
    查找 想找 有关 相关 吗 呢 最好 观察 包括 包含 涉及 有何 有无 存在 相比 相比较 知道 能
    """
    )
    | ZH_COMORBIDITY_LINKS
)
ZH_METHOD_CUES = words("通过 基于 采用 使用 利用 借助 运用 结合 用 以 来自 源自")
# the source of data ("数据来自X监测"): a task-headed phrase after them is the method
ZH_SOURCE_CUES = words("来自 源自")
# modifiers that make "analysis" a technique ("survival analysis") rather than a task on an object
# ("gait analysis", "sentiment analysis")
ANALYSIS_TECHNIQUES = words(
    """
    regression survival mediation moderation cluster factor component discriminant sensitivity
    thematic content spatial network multilevel meta meta-regression cost-effectiveness
    cost-benefit path latent class correspondence variance covariance bibliometric qualitative
    quantitative time-series series wavelet spectral fourier frequency mixed-methods decision
    """
)
# modifiers that make "networks" a model (besides the algorithmic modifiers and acronyms)
NETWORK_MODEL_WORDS = words(
    """
    convolutional recurrent graph adversarial residual spiking feedforward feed-forward capsule
    siamese attention transformer artificial multilayer perceptron belief
    """
)
# modifiers that make "trees" a model ("gradient-boosted trees")
TREE_MODEL_WORDS = words(
    "decision regression classification boosted gradient-boosted random boosting extra event fault"
)
# nouns that introduce who is studied ("研究对象是X", "被试为X")
ZH_SUBJECT_NOUNS = words("研究对象 调查对象 对象 被试 受试者 样本 参与者")
# "X治疗Y": X is given (the setting), Y is who is treated
ZH_TREAT_VERBS = words("治疗 防治")
# "X的影响因素": X is the outcome the factors act on
ZH_FACTOR_WORDS = words("影响因素 因素 危险因素 相关因素 决定因素")
# nouns of how a thing works (机制 "mechanism"): after a topic ("X及其机制") an aspect the study examines
ZH_MECHANISM_WORDS = words("机制 机理 作用机制 分子机制 作用机理 发生机制 调控机制")
# a treatment's efficacy (疗效及安全性 "efficacy and safety"): the aspect of a treatment a trial measures,
# as 安全性 is; alone "efficacy" is a generic word the translation drops (`slot_translation._generic`)
ZH_EFFICACY_WORDS = words("疗效 临床疗效 近期疗效 远期疗效 短期疗效 长期疗效")
# links that attach an aspect noun to the topic before it ("X的安全性", "疗效及安全性", "X及其机制")
ZH_ASPECT_LINKS = words("的 及 及其 和 与 以及 其 、")
_HAN_WORD = re.compile(r"[\u4e00-\u9fff]+")


def zh_aspect_word(text: str) -> bool:
    """A Chinese noun naming an aspect of a topic rather than a topic: its factors (影响因素, 危险因素), its
    mechanism (机制, 机理), a treatment's efficacy (疗效), or a property noun made with the abstract
    suffix 性 "-ity, -ness" on a two-character stem (安全性 safety, 有效性 effectiveness, 可行性 feasibility). Attached to a topic, it is what the study
    examines of it, an outcome (the slot convention of `evals.understanding.metrics`), and a term of its own."""
    if text in ZH_RELATION_WORDS:
        return False  # 相关性 "correlation": a relation between the terms around it, no aspect of one
    return (
        text in ZH_FACTOR_WORDS
        or text in ZH_MECHANISM_WORDS
        or text in ZH_EFFICACY_WORDS
        or (len(text) == 3 and text.endswith("性") and _HAN_WORD.fullmatch(text) is not None)
    )


# "A与B的关系": the words joining A and B, and the relation words after them
ZH_AND = words("和 与 及 以及")
ZH_RELATION_WORDS = words("关系 关联 相关性 联系 影响 作用 效应 相关 因果关系")
# "A与B的前瞻性队列研究": a study of A and B relates them too
ZH_STUDY_ENDINGS = ("研究", "分析", "调查")
# heads that only say what kind of thing a phrase is ("检测方法"): the words before them decide
ZH_GENERIC_HEADS = ("方法研究", "方法", "技术", "研究", "机制")
# units after a number that make it a time span ("21世纪", "10年"), not a concept
ZH_TIME_UNITS = words("世纪 年 年代 月 周 天 日 小时")
# population heads that end a word without naming people (人群 is people; 人工 is not)
ZH_NOT_PEOPLE = words("人工")
ZH_POPULATION_CUES = words("针对 对于")
ZH_CONTEXT_CUES = words("在 面向 用于 应用于 服务于 应用")
ZH_OUTCOME_CUES = words("提高 改善 降低 减少 增加 对")
# verbs of change ("X能否降低Y", "X是否加剧了Y", "X改善Y"): what acts, and what changes
ZH_CHANGE_VERBS = words("提高 改善 降低 减少 增加 减轻 缓解 加剧 促进 抑制 延缓 预防 增强 减弱")

ZH_TASK_HEADS = words(
    """
    解码 预测 分类 检测 识别 分割 估计 估算 诊断 筛查 筛选 重建 监测 合成 设计 生成 评估 定位 追踪 跟踪 控制
    优化 建模 发现 推断 映射 翻译 检索 聚类 排序 标注 预警 溯源 规划 导航 降解 催化 储能 分离 提取
    制备 表征 模拟 仿真 估算 预估 鉴定 反演
    """
)
# heads ending in 者 (a person who ...) are people too: 患者, 阅读障碍者
ZH_POPULATION_HEADS = words(
    """
    者 患者 病人 受试者 被试 人群 群 小鼠 大鼠 猕猴 猴 儿童 青少年 老年人 成人 居民 农户 家庭 企业 公司 学生
    细胞 神经元 动物 志愿者 孕妇 妇女 工人 员工 医生 护士 农民 城市 国家 地区 省份 医院 学校 物种 植物 作物
    材料 催化剂 电池 合金
    """
)
ZH_MEASUREMENT_HEADS = words(
    """
    电图 脑电 电极 成像 影像 记录 测序 光谱 谱 扫描 问卷 调查 数据 传感器 显微镜 显微 造影 图像 试验 实验
    样本 活检 遥感 卫星 观测 测量 阵列 数据集
    """
)
ZH_ALGORITHM_HEADS = words(
    "网络 模型 学习 算法 回归 滤波 分类器 森林 向量机 方法 法 框架 架构 编码器 解码器 计算"
)
ZH_FEATURE_HEADS = words(
    "活动 振荡 频段 波段 特征 信号 功率 相位 连接 节律 电位 发放 动力学 表达 生物标志物 标志物"
)
ZH_OUTPUT_HEADS = words(
    "声学 音素 单词 文本 句子 位置 轨迹 结局 死亡率 率 并发症 寿命 意愿 满意度 质量 效果 疗效 预后 性能 评分 含量 风险 产量 价格 意图 运动 发作 复发 收益 就业 衰老 模式"
)
# what is given or done to those studied, and where (management too: 社区管理, 疼痛管理 name care given)
ZH_CONTEXT_HEADS = words(
    "康复 临床 应用 场景 手术 政策 系统 接口 环境 产业 行业 市场 背景 治疗 干预 疗法 管理"
)
ZH_HEADS = (
    ZH_TASK_HEADS
    | ZH_POPULATION_HEADS
    | ZH_MEASUREMENT_HEADS
    | ZH_ALGORITHM_HEADS
    | ZH_FEATURE_HEADS
    | ZH_OUTPUT_HEADS
    | ZH_CONTEXT_HEADS
)


ZH_GENERIC = words(
    """
    影响 效果 作用 关系 意义 方法 技术 研究 问题 领域 方向 工作 应用 项目 影响因素 因素 数据 发生 文献 论文
    变化 对象 模型 输入 输出 进展 研究进展 中介作用 调节作用 靶点 验证 率定 检验 对比 比较
    过程 结果 计划 方案 资料 指标 表现 经历 任务 情况 状况 内容 方式 程度 特点 功能 结构 机构
    """
)

# endings of hyphenated study-design words ("cross-sectional", "quasi-experimental", "stepped-wedge")
DESIGN_ENDINGS = (
    "-sectional",
    "-experimental",
    "-controlled",
    "-control",
    "-randomised",
    "-randomized",
    "-wedge",
    "-over",
    "-study",
    "-series",
)
STUDY_DESIGN_WORDS = words(
    """
    study experimental quasi-experimental trial survey sampling research factorial crossover
    """
)
# the participles after people that name the procedure or treatment they go through ("patients
# undergoing colonoscopy", "adults receiving chemotherapy", "children scheduled for tonsillectomy"): the
# procedure is the setting of the study, whatever its head word says (a "-scopy" is no method here)
UNDERGOING_CUES = words("undergoing receiving awaiting scheduled undergone received")
# participles of leaving a place or an institution: what "from" names after them is where those studied
# were ("young people released from youth custody", "patients discharged from hospital", "children
# removed from parental care"), the setting, not the source of the data ("data from registries")
LEAVING_PARTICIPLES = words(
    """
    released discharged transferred removed evacuated displaced withdrawn expelled excluded
    deported repatriated relocated resettled exited
    """
)
# Who delivers an intervention is part of it (the setting), not who is studied: people "by" whom a
# participle of these is done ("a programme delivered by lay workers", "schools run by NGOs"), people
# trained "to" do one of DELIVERING_VERBS, and people who do one to other people ("midwives visit
# mothers": the midwives deliver, the mothers are studied)
DELIVERING_PARTICIPLES = words(
    """
    delivered provided offered given administered led run facilitated taught performed coached
    supervised implemented organised organized hosted staffed
    """
)
# verbs whose object is what is delivered (an intervention: the setting)
HANDING_VERBS = words("deliver provide offer give administer implement run lead facilitate prescribe")
# verbs whose object is the people served (who are studied)
SERVING_VERBS = words(
    "counsel coach teach train educate mentor support visit meet screen refer treat vaccinate supervise"
)
DELIVERING_VERBS = HANDING_VERBS | SERVING_VERBS
# nouns of handing a substance over: "take-home naloxone distribution", "vitamin A supplementation",
# "antibiotic prescribing": what is handed over is what every paper of it names
HANDING_NOUNS = words(
    "delivery provision administration prescription prescribing distribution dispensing supply"
)
# nouns of a substance being present where it is measured ("microplastic contamination", "arsenic
# levels", "pesticide concentrations"): the substance is what every paper of it names
PRESENCE_NOUNS = words(
    "contamination pollution level levels concentration concentrations residue residues content"
)
# nouns of the form a substance is given in or applied by ("chlorhexidine bathing", "take-home naloxone
# kits", "ketamine infusion", "nicotine patches"): the substance is what every paper of it names, the
# form only how it reaches the patient, no concept a search requires
GIVEN_FORM_NOUNS = words(
    """
    kit kits bath baths bathing wash washes washing wipe wipes infusion infusions injection injections
    patch patches spray sprays gel gels cream creams ointment ointments drops dose doses dosing regimen
    regimens
    """
)
# (no pills, tablets or capsules: "water pills", "sleeping tablets" are lay names of a class, not water)
# verbs whose object the researchers make or put to use ("we are building a chatbot", "we develop an
# app", "we will train a U-Net"): the thing built or trained is the method, not the setting, unless
# MeSH or its head word says otherwise ("train nurses")
BUILDING_VERBS = inflections(
    "develop design deploy create construct implement prototype train pretrain"
) | words("build builds built building developing designing deploying creating constructing implementing")
# what a hurried note says to the reader, not of the research ("RCTs ok", "pls", "thanks!", "fyi"):
# interjections and politeness words of written English, no part of any term
NOTE_INTERJECTIONS = words("ok okay pls plz thanks thank thx cheers lol fyi btw asap hi hello hey")
# a predicate adjective a note writes after what it allows, with no copula ("any language fine")
NOTE_ALLOWING = words("fine ok okay")
# the language of the papers, a limit of the search: "any language", "all languages"
PAPER_LANGUAGE_QUANTIFIERS = words("any all")

# the manner an intervention is delivered in, after a participle of delivering ("CBT delivered online
# versus face-to-face"): a mode of the intervention, not a concept of its own
DELIVERY_MANNERS = words(
    "online offline face-to-face in-person remotely virtually digitally individually telephonically"
)

# scope words after a noun ("medical students worldwide", "hospitals nationwide"): how far the study
# reaches, never part of the phrase
SCOPE_WORDS = words("worldwide globally internationally nationwide countrywide statewide")
# heads of places where people live, as units a population lives in ("in low-income communities", "in
# European cities"): beside the people studied they are the setting
PLACE_UNIT_HEADS = words(
    """
    city cities town towns village villages community communities neighbourhood neighbourhoods
    neighborhood neighborhoods region regions district districts municipality municipalities
    province provinces county counties settlement settlements
    """
)
# measures of a test's performance ("compare its sensitivity with that of radiologists"): an outcome
DIAGNOSTIC_MEASURES = words("sensitivity specificity accuracy error")
# past participles that relate their subject to what follows "to" ("X is related to Y")
RELATING_PARTICIPLES = words("related linked connected tied")
# verbs whose object is the topic studied ("we study code-switching", "I am working on algal blooms",
# "we care about parental acceptance"): with no head word or MeSH descriptor saying otherwise, the
# topic is the phenomenon observed (the outcome), not the setting
STUDYING_CUES = words(
    """
    study studies studying investigate investigates investigating examine examines examining
    explore explores exploring studied analyse analyses analysing analyze analyzes analyzing
    """
)
# verbs that take the topic after "on" or "about" ("working on", "focus on", "care about")
TOPIC_BEFORE_ON = words("work works working worked focus focuses focusing focused care cares")
# participles whose "against" names the reference standard ("validated against chart review")
VALIDATING_PARTICIPLES = words("validated calibrated benchmarked checked verified")
# places samples are taken at, counted ("across 30 villages", "at 40 locations"): a sample size
SAMPLING_PLACES = words("site location village plot station transect quadrat point")
# verbs whose "on" names what a study uses ("characterisation will rely on XPS", "we draw on registry data",
# "a model trained on CAMELYON16": the data it learns from)
RELYING_BEFORE_ON = words(
    "rely relies relying relied depend depends depending draw draws drawing trained pretrained fitted calibrated"
)
# plural nouns of studies and records, after which an "-ing" word opens a relative clause ("cohort
# studies reporting aphasia", "trials comparing X", "records showing Y")
RECORD_NOUNS = words("studies trials reports records series papers articles datasets registries")
# nouns of data whose "on" names the units the data describe ("panel data on hotels", "records on
# farms"): those units are what is studied
DATA_ON_NOUNS = words("data dataset datasets records statistics information panel panels")
# people nouns that after a count only give the sample size ("about 2,000 respondents")
SAMPLE_NOUNS = words("participant respondent subject volunteer individual person people")
# nouns that after "before"/"after" alone only mark a time point of the study ("12 months after
# treatment", "before randomisation")
TIME_ANCHORS = words(
    "treatment intervention randomisation randomization baseline enrolment enrollment inclusion implementation installation"
)
# tasks of care done to a condition or an outcome: what they prevent or treat is also what the study
# observes ("the prevention of suicide" studies suicide, as "the treatment of malaria" studies malaria)
EN_CARE_TASKS = words("prevention treatment management")


# what is taken from somewhere: after them "from" names where (a body site, an institution, a place),
# the setting ("swabs from the middle meatus", "records from two NHS trusts")
TAKEN_NOUNS = words(
    """
    sample swab specimen isolate biopsy aspirate lavage culture core record recording report
    measurement observation history log file
    """
)
# heads that name where data are kept, not where they were taken: "from" before them names a source
# of data, a method ("from the Nepal Living Standards Survey", "from the PeMS dataset")
DATA_SOURCE_HEADS = words(
    """
    survey dataset database data panel registry register archive repository cohort study census
    index bank biobank platform portal network project trial programme program corpus collection
    """
)
# organisations records and samples come from: the setting of the study ("from a regional airline",
# "from two NHS trusts", "from a large employer")
ORGANISATION_HEADS = words(
    """
    airline employer trust hospital clinic practice retailer company firm insurer municipality
    council agency department ministry utility manufacturer supplier laboratory centre center
    """
)

//! The words the instruction rules are made of, as regular-expression fragments: who the
//! model works for, what it may be told to keep from them or to do without them, and the
//! private data it holds or can reach. Each fragment is a class of words, so that a rule is
//! a sentence shape over classes rather than a list of phrasings: `do not` + `tell` + `the
//! user` is the same finding as `refrain from` + `notifying` + `the account holder`.
//!
//! Verbs stand in their base form (`tell`, `send`): the form of an order to the model. A
//! description of what a tool does uses the third person (`sends`, `never tells`), which the
//! classes leave out on purpose.

use std::sync::LazyLock;

use regex::Regex;

/// Up to the end of a sentence: no `!`, `?` or line break, and a `.` only inside a word or a
/// path (`~/.ssh`, `mcp.json`), never one that ends a sentence.
pub(super) const GAP: &str = r"(?:[^.!?\n]|\.[^\s])";

/// `source` made case-insensitive, with `{GAP}` standing for [`GAP`] and each `{NAME}` of
/// [`FRAGMENTS`] for its fragment.
pub(super) fn pattern(source: &str) -> Regex {
    let mut source = source.replace("{GAP}", GAP);
    for (name, fragment) in FRAGMENTS {
        source = source.replace(&format!("{{{name}}}"), fragment);
    }
    Regex::new(&format!("(?i){source}")).expect("the lint patterns are valid")
}

/// The fragments [`pattern`] knows by name.
const FRAGMENTS: [(&str, &str); 9] = [
    ("HUMAN", HUMAN),
    ("TELL", TELL),
    ("TELLING", TELLING),
    ("REVEAL", REVEAL),
    ("HUSH", HUSH),
    ("ASK", ASK),
    ("CONSENT", CONSENT),
    ("SENSITIVE", SENSITIVE),
    ("TRANSFER", TRANSFER),
];

/// The person the model works for.
const HUMAN: &str = r"(?:(?:the|your|this|our|my|an?) )?(?:end[- ]?)?(?:users?|humans?|person|operators?|customers?|account (?:holder|owner)s?|requesters?|owners?|people|anyone)\b";

/// Telling the person something, with the person as the object: `tell the user`.
const TELL: &str = r"(?:tell|inform|notify|alert|warn|bother|trouble|involve|update|let|make|ping|cc|loop in|consult|remind)";

/// The same, as `refrain from`, `avoid` and `without` take it.
const TELLING: &str = r"(?:telling|informing|notifying|alerting|warning|bothering|troubling|involving|updating|letting|making|pinging|cc'?ing|looping in|consulting|mentioning|revealing|showing|disclosing|reporting|surfacing|displaying|explaining|bringing up|saying|acknowledging|admitting|flagging|pointing out|drawing attention to|signal(?:l)?ing)";

/// Making something known, with the thing as the object: `mention this`.
const REVEAL: &str = r"(?:mention|reveal|show|disclose|report|surface|display|explain|bring up|say|acknowledge|admit|flag|point out|draw attention to|signal|discuss|talk about|refer to|reference|describe|announce|highlight|note|confirm|share)";

/// What a concealment keeps: this very instruction, the step, the call, its side effects.
const HUSH: &str = r"(?:this|these|it|them|any of (?:this|these|it|that)|anything (?:about|of) (?:this|it|that)|the (?:above|following|preceding)|(?:this|that|the|these|those|any|an?|your) (?:extra |additional |hidden |second |silent |background |other )?(?:step|instruction|note|request|call|action|operation|transfer|upload|copy|copies|recipient|forward(?:ing)?|bcc|cc|change|fact|detail|part|side[- ]effect|redirect(?:ion)?|rule|tool call|message)s?|(?:what|that) you (?:did|do|are doing|have done|read|sent|called))";

/// Asking the person before acting.
const ASK: &str = r"(?:ask|confirm|check|verify|consult|prompt|wait|seek|request|get|obtain|require|need|bother|involve|interrupt|double[- ]check|run (?:it|this) by)";

/// What asking obtains.
const CONSENT: &str = r"(?:confirmation|approval|consent|permission|go-?ahead|sign-?off|authori[sz]ation|ok|okay|agreement|review|say-?so|blessing)";

/// Secrets and private data a model holds or can reach: key files and credentials, the
/// conversation and the user's earlier messages, the model's own instructions, the
/// environment.
pub(super) const SENSITIVE: &str = r"(?:~/\.ssh|id_rsa|id_ed25519|\.ssh/|\.aws/credentials|\.env\b|/etc/passwd|/etc/shadow|\.netrc|\.npmrc|\.pypirc|\.git-credentials|\.docker/config\.json|mcp\.json|claude_desktop_config|~/[\w.-]+|/home/\w+|%(?:appdata|userprofile)%|credentials?\b|private keys?|signing keys?|ssh keys?|api[ _-]?keys?|access tokens?|auth(?:orization)? (?:tokens?|headers?)|api[ _-]?tokens?|(?:the user'?s?|their|your) (?:shell |local )?environment\b|bearer tokens?|refresh tokens?|session (?:tokens?|ids?|cookies?)|cookies\b|passwords?|passphrases?|seed phrases?|recovery (?:phrases?|codes?)|secrets?\b|keychain|environment variables?|env(?:ironment)? vars?|process\.env|os\.environ|(?:the |your )?(?:system|developer|initial|original|hidden) (?:prompt|message|instructions?)s?|your (?:instructions|rules|guidelines|configuration|prompt)\b|context window|(?:conversation|chat|message|dialog(?:ue)?|session) (?:history|log|transcript|so far|context|record)s?|(?:the |this )?(?:whole|full|entire|complete) (?:conversation|chat|dialog(?:ue)?|thread|transcript|history|context)|(?:the user'?s? |their |your )?(?:previous|prior|earlier|past|preceding|older|last \d+|recent) (?:user )?(?:messages?|turns?|exchanges?|prompts?|requests?|questions?|conversations?|chats?|inputs?)|(?:all|every|each)(?: of)?(?: the)?(?: user'?s?| your| their)? (?:messages?|turns?|exchanges?|prompts?|conversations?|chats?)|(?:everything|all|whatever|anything) (?:that )?(?:the user|you|they|we)(?: have| has|'ve)? (?:said|written|typed|asked|told you|shared|sent|pasted|entered|mentioned|discussed|talked about)|conversation history|chat history)";

/// Moving data somewhere, in the base form an order takes.
pub(super) const TRANSFER: &str = r"(?:pass|send|put|insert|include|attach|upload|forward|post|provide|append|prepend|add|embed|encode|copy|paste|fill|populate|set|write|submit|place|supply|share|transmit|log|store|save|give|hand|relay|echo|repeat|quote|dump|export|leak|bcc|cc|email|mail|sync|mirror|stuff|smuggle|carry)";

/// Where data moved to: a parameter, a field, a request, an address.
pub(super) static SINK: LazyLock<Regex> = LazyLock::new(|| {
    pattern(
        r"\b(?:parameters?|params?|arguments?|args?|fields?|propert(?:y|ies)|value of|request|call|tool|url|query|header|body|payload|metadata|sidenote|notes?|webhook|endpoint|email|address)\b|`[^`\s]{1,64}`|'[A-Za-z_][\w.-]{0,63}'|https?://|\b[\w.+-]+@[\w-]+\.[\w.-]+",
    )
});

/// Asking for data copied whole: `word for word`, `verbatim`.
pub(super) static VERBATIM: LazyLock<Regex> = LazyLock::new(|| {
    pattern(
        r"\b(?:word[- ]for[- ]word|verbatim|in full|unabridged|unedited|unaltered|exactly as (?:written|typed|given|sent|said)|character[- ]for[- ]character|in (?:its|their) entirety|as[- ]is|without (?:summari[sz]ing|paraphrasing|omitting|redacting|shortening|truncating|editing|changes|changing)|(?:full|complete|entire|raw) (?:text|contents?|transcript|copy))\b",
    )
});

/// A word that turns the sentence's order around: `do not`, `never`, `no`.
pub(super) static NEGATION: LazyLock<Regex> = LazyLock::new(|| {
    pattern(r"\b(?:not|never|no|n't|don't|doesn't|won't|cannot|nothing|neither|nor)\b|n't\b")
});

/// Negations that are not: `do not forget to`, `never fail to`, `make sure not to skip`.
pub(super) static AFFIRMING: LazyLock<Regex> = LazyLock::new(|| {
    pattern(
        r"\b(?:do not|don't|never|not) (?:forget|fail|neglect|omit|hesitate)(?: to)?\b|\bnot only\b",
    )
});

/// A condition a sentence's claim hangs on: `once the user has approved`, `if the user
/// agreed`: the claim is then no claim.
pub(super) static CONDITION: LazyLock<Regex> = LazyLock::new(|| {
    pattern(r"\b(?:if|once|after|when|whenever|until|unless|whether|only|before|as soon as)\b")
});

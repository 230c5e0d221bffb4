//! The local web calculator: `swtcg-odds serve` serves one page (embedded:
//! it loads nothing from the internet) and a JSON API over the library.
//!
//! Every answer comes from the same code as the command line: `GET
//! /api/attack` takes the CLI's flag names and returns exactly what `attack
//! --json` prints. Requests are handled by [`handle`], a pure function of
//! the method, the URL and the body (so that tests and the fuzz harness call
//! it in-process); [`serve`] puts it behind an HTTP server bound to
//! 127.0.0.1 unless told otherwise, with a bounded body, a bounded number
//! of solves at once, a time limit per request, and no path from a request
//! to the file system.
//!
//! ```
//! use swtcg_odds::web::{State, handle};
//! let state = State::new(None);
//! let r = handle(&state, "GET", "/api/attack?power=2&crit=1", b"");
//! assert_eq!(r.status, 200);
//! let v: serde_json::Value = serde_json::from_slice(&r.body).unwrap();
//! assert!(v["defender_damage"]["mean"].is_string());
//! let r = handle(&state, "GET", "/api/attack?power=-1", b"");
//! assert_eq!(r.status, 400);
//! ```

use crate::attack::Side;
use crate::cards::stack::Switches;
use crate::cards::{Arena, CardDb};
use crate::dist::Fraction;
use crate::error::{Error, Result};
use crate::matchups::duel;
use crate::plan::Plan;
use crate::policy::Policy;
use crate::report::DistReport;
use crate::scenario::Scenario;
use crate::table::{Kind, Param, units_of};
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

/// The page.
pub const INDEX: &str = include_str!("web/index.html");

/// Most bytes of a request body.
pub const MAX_BODY: usize = 64 * 1024;
/// Most bytes of a request URL.
pub const MAX_URL: usize = 8 * 1024;
/// Most time one request may take.
pub const REQUEST_TIME: Duration = Duration::from_secs(20);

/// A response: status, content type and body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Response {
    /// The HTTP status.
    pub status: u16,
    /// Its content type.
    pub content_type: &'static str,
    /// Its body.
    pub body: Vec<u8>,
}

impl Response {
    fn json<T: Serialize>(value: &T) -> Response {
        Response {
            status: 200,
            content_type: "application/json",
            body: serde_json::to_vec(value).unwrap_or_default(),
        }
    }

    fn error(status: u16, message: &str) -> Response {
        #[derive(Serialize)]
        struct E<'a> {
            error: &'a str,
        }
        Response {
            status,
            content_type: "application/json",
            body: serde_json::to_vec(&E { error: message }).unwrap_or_default(),
        }
    }
}

/// What the server holds: the card database given with `--db`, and the
/// bound on solves at once.
#[derive(Debug)]
pub struct State {
    db: Option<CardDb>,
    slots: Arc<(Mutex<usize>, Condvar)>,
}

impl State {
    /// The server's state, with the card database if any.
    pub fn new(db: Option<CardDb>) -> State {
        let n = std::thread::available_parallelism().map_or(2, |n| n.get());
        State {
            db,
            slots: Arc::new((Mutex::new(n), Condvar::new())),
        }
    }
}

/// Why a request failed: the client's malformed request (400), or input
/// that reads but can't be solved (422).
enum Failure {
    Bad(String),
    Unprocessable(String),
}

impl From<Error> for Failure {
    fn from(e: Error) -> Failure {
        Failure::Unprocessable(e.to_string())
    }
}

/// The decoded pairs of a URL's query (`+` a space, bad escapes kept as
/// written, invalid UTF-8 replaced).
fn query(url: &str) -> Vec<(String, String)> {
    let q = url.split_once('?').map_or("", |(_, q)| q);
    form_urlencoded::parse(q.as_bytes())
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect()
}

/// The flags of `attack` a query may give (never a path: `--plot` is not
/// among them).
const POLICY_FLAGS: [&str; 5] = [
    "lucky-policy",
    "lucky-order",
    "objective",
    "force-attacker",
    "force-defender",
];

/// The command line of an attack query: `--name=value` for each pair (so
/// that no value can become a flag), switches written `=true` or `=false`.
fn attack_args(pairs: &[(String, String)]) -> std::result::Result<Vec<String>, Failure> {
    let mut args = vec!["swtcg-odds".to_string(), "attack".into(), "--json".into()];
    for (k, v) in pairs {
        let switch = |v: &str| match v {
            "true" | "on" | "1" | "" => Ok(true),
            "false" | "off" | "0" => Ok(false),
            _ => Err(Failure::Bad(format!(
                "{k}={}: give true or false",
                crate::error::quote(v)
            ))),
        };
        if let Some(p) = Param::from_name(k) {
            if p.kind() == Kind::Switch {
                args.push(format!("--{k}={}", if switch(v)? { "on" } else { "off" }));
            } else {
                args.push(format!("--{k}={v}"));
            }
        } else if POLICY_FLAGS.contains(&k.as_str()) || k == "other-health" {
            args.push(format!("--{k}={v}"));
        } else if k == "overkill" {
            if switch(v)? {
                args.push("--overkill".into());
            }
        } else {
            return Err(Failure::Bad(format!(
                "'{}' is not a parameter of an attack (power, crit, parry, ...)",
                crate::error::quote(k)
            )));
        }
    }
    Ok(args)
}

/// The units of an attack query (for combining attacks).
fn units_of_query(
    pairs: &[(String, String)],
) -> std::result::Result<(crate::unit::Unit, crate::unit::Unit), Failure> {
    let mut values = Vec::new();
    for (k, v) in pairs {
        let p = Param::from_name(k).ok_or_else(|| {
            Failure::Bad(format!(
                "'{}': combining takes the units' parameters only",
                crate::error::quote(k)
            ))
        })?;
        let v = if p.kind() == Kind::Switch && (v == "true" || v.is_empty()) {
            "on"
        } else {
            v
        };
        values.push((p, p.value(v).map_err(|e| Failure::Bad(e.to_string()))?));
    }
    values.sort_by_key(|(p, _)| *p);
    Ok(units_of(&values)?)
}

#[derive(Serialize)]
struct ParamSpec {
    name: &'static str,
    label: String,
    kind: &'static str,
    side: &'static str,
    doc: &'static str,
}

#[derive(Serialize)]
struct Spec {
    params: Vec<ParamSpec>,
    cards: bool,
}

fn params_spec(state: &State) -> Spec {
    Spec {
        params: Param::ALL
            .iter()
            .map(|p| ParamSpec {
                name: p.name(),
                label: p.name().replace('-', " "),
                kind: match p.kind() {
                    Kind::Count => "count",
                    Kind::Signed => "signed",
                    Kind::Switch => "switch",
                    Kind::Health => "health",
                },
                side: match p.side() {
                    Side::Attacking => "attacker",
                    Side::Defending => "defender",
                },
                doc: p.doc(),
            })
            .collect(),
        cards: state.db.is_some(),
    }
}

/// Refuses scenario and plan files that name files (a request never reaches
/// the file system).
fn no_files(body: &[u8]) -> std::result::Result<&str, Failure> {
    let text =
        std::str::from_utf8(body).map_err(|_| Failure::Bad("the body is not UTF-8 text".into()))?;
    let v: serde_json::Value = serde_json::from_str(crate::error::strip_bom(text))
        .map_err(|e| Failure::Bad(format!("the body: {e}")))?;
    if v.get("db").is_some() {
        return Err(Failure::Unprocessable(
            "\"db\": the server's cards are those it was started with (serve --db)".into(),
        ));
    }
    Ok(text)
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct CombineRequest {
    #[serde(default)]
    how: Option<String>,
    attacks: Vec<BTreeMap<String, String>>,
}

#[derive(Serialize)]
struct Combined {
    total: DistReport,
    #[serde(skip_serializing_if = "Option::is_none")]
    discarded: Option<Fraction>,
    attacks: Vec<DistReport>,
}

fn combine(body: &[u8]) -> std::result::Result<Response, Failure> {
    let req: CombineRequest =
        serde_json::from_slice(body).map_err(|e| Failure::Bad(format!("the body: {e}")))?;
    if req.attacks.is_empty() || req.attacks.len() > 20 {
        return Err(Failure::Bad("combine 1 to 20 attacks".into()));
    }
    let pairs: Vec<Vec<(String, String)>> = req
        .attacks
        .iter()
        .map(|a| a.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
        .collect();
    match req.how.as_deref().unwrap_or("convolve") {
        "convolve" => {
            let mut total = crate::dist::Dist::<num_bigint::BigUint>::point(0);
            let mut reports = Vec::new();
            for p in &pairs {
                let (a, d) = units_of_query(p)?;
                let out = crate::attack::attack(&a, &d)?;
                reports.push(DistReport::of(&out.defender_damage));
                // Independent attacks: the exact law of the sum.
                total = total.convolve(&out.defender_damage.to_big());
            }
            Ok(Response::json(&Combined {
                total: DistReport::of(&total),
                discarded: None,
                attacks: reports,
            }))
        }
        "plan" => {
            let mut attackers = Vec::new();
            let mut defender = None;
            for (i, p) in pairs.iter().enumerate() {
                let (mut a, d) = units_of_query(p)?;
                a.name = format!("attack {}", i + 1);
                defender.get_or_insert(d);
                attackers.push(a);
            }
            let d = defender.expect("one attack at least");
            let n = attackers.len();
            let plan = Plan::new(d, attackers, (0..n).collect(), Policy::default())?;
            let report = plan.solve()?;
            Ok(Response::json(&Combined {
                total: DistReport::of(&report.total_damage),
                discarded: report
                    .steps
                    .last()
                    .map(|s| Fraction(s.defender_discarded.clone())),
                attacks: report
                    .steps
                    .iter()
                    .map(|s| DistReport::of(&s.total_so_far))
                    .collect(),
            }))
        }
        other => Err(Failure::Bad(format!(
            "how '{}': convolve or plan",
            crate::error::quote(other)
        ))),
    }
}

fn cards_attack(
    state: &State,
    pairs: &[(String, String)],
) -> std::result::Result<Response, Failure> {
    let db = state.db.as_ref().ok_or_else(|| {
        Failure::Unprocessable("no card database: start the server with --db".into())
    })?;
    let get = |k: &str| pairs.iter().find(|(a, _)| a == k).map(|(_, v)| v.clone());
    let attacker = get("attacker").ok_or_else(|| Failure::Bad("attacker= is required".into()))?;
    let defender = get("defender").ok_or_else(|| Failure::Bad("defender= is required".into()))?;
    let conditions: Vec<String> = pairs
        .iter()
        .filter(|(k, _)| k == "condition")
        .map(|(_, v)| v.clone())
        .collect();
    let arena = match get("arena") {
        Some(w) => Some(Arena::from_word(&w).ok_or_else(|| {
            Failure::Bad(format!(
                "arena '{}': Space, Ground or Character",
                crate::error::quote(&w)
            ))
        })?),
        None => None,
    };
    for (k, _) in pairs {
        if !["attacker", "defender", "condition", "arena"].contains(&k.as_str()) {
            return Err(Failure::Bad(format!(
                "'{}' is not a parameter of a card attack",
                crate::error::quote(k)
            )));
        }
    }
    let a = db.piece(&attacker)?;
    let d = db.piece(&defender)?;
    let switches = Switches::parse(&conditions)?;
    let report = duel(&a, &d, &switches, arena, &Policy::default())?.solve()?;
    Ok(Response::json(&report.json()))
}

/// Runs `work` within the state's bound on solves at once and the time
/// limit per request.
fn bounded(state: &State, work: impl FnOnce() -> Response + Send + 'static) -> Response {
    let (lock, cv) = &*state.slots;
    {
        let mut free = lock.lock().unwrap_or_else(|e| e.into_inner());
        while *free == 0 {
            free = cv.wait(free).unwrap_or_else(|e| e.into_inner());
        }
        *free -= 1;
    }
    let slots = state.slots.clone();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(work))
            .unwrap_or_else(|_| Response::error(500, "the solver failed on this request"));
        let _ = tx.send(r);
        let (lock, cv) = &*slots;
        *lock.lock().unwrap_or_else(|e| e.into_inner()) += 1;
        cv.notify_one();
    });
    rx.recv_timeout(REQUEST_TIME).unwrap_or_else(|_| {
        Response::error(
            503,
            &format!("the request took longer than {} s", REQUEST_TIME.as_secs()),
        )
    })
}

/// Answers one request.
pub fn handle(state: &State, method: &str, url: &str, body: &[u8]) -> Response {
    if url.len() > MAX_URL {
        return Response::error(414, &format!("the URL is longer than {MAX_URL} bytes"));
    }
    if body.len() > MAX_BODY {
        return Response::error(413, &format!("the body is longer than {MAX_BODY} bytes"));
    }
    let path = url.split('?').next().unwrap_or("");
    let pairs = query(url);
    let result: std::result::Result<Response, Failure> = match (method, path) {
        ("GET", "/") | ("GET", "/index.html") => Ok(Response {
            status: 200,
            content_type: "text/html; charset=utf-8",
            body: INDEX.as_bytes().to_vec(),
        }),
        ("GET", "/api/params") => Ok(Response::json(&params_spec(state))),
        ("GET", "/api/attack") => attack_args(&pairs).and_then(|args| {
            let ran = crate::cli::run_args(args);
            match ran.status {
                0 => Ok(Response {
                    status: 200,
                    content_type: "application/json",
                    body: ran.stdout.into_bytes(),
                }),
                _ => {
                    let msg = ran
                        .stderr
                        .trim()
                        .trim_start_matches("error: ")
                        .trim_end_matches(" (see --help)")
                        .to_string();
                    // A flag's malformed value (the message names the flag)
                    // is the request's fault; input that reads but can't be
                    // solved is unprocessable.
                    if ran.stderr.contains("(see --help)") || msg.starts_with("--") {
                        Err(Failure::Bad(msg))
                    } else {
                        Err(Failure::Unprocessable(msg))
                    }
                }
            }
        }),
        // Units given as `"card"` come from the server's --db.
        ("POST", "/api/scenario") => no_files(body).and_then(|t| {
            let s = match &state.db {
                Some(db) => Scenario::from_json_with_cards(t, db)?,
                None => Scenario::from_json(t)?,
            };
            Ok(Response::json(&s.solve()?.json()))
        }),
        ("POST", "/api/plan") => no_files(body).and_then(|t| {
            let p = match &state.db {
                Some(db) => Plan::from_json_with_cards(t, db)?,
                None => Plan::from_json(t)?,
            };
            Ok(Response::json(&p.solve()?.json()))
        }),
        ("POST", "/api/combine") => combine(body),
        ("GET", "/api/cards") => match &state.db {
            None => Err(Failure::Unprocessable(
                "no card database: start the server with --db".into(),
            )),
            Some(db) => {
                let q = pairs
                    .iter()
                    .find(|(k, _)| k == "q")
                    .map_or(String::new(), |(_, v)| v.clone());
                let found: Vec<_> = db.find(&q).into_iter().take(200).collect();
                Ok(Response::json(&found))
            }
        },
        ("GET", "/api/cards/check") => match &state.db {
            None => Err(Failure::Unprocessable(
                "no card database: start the server with --db".into(),
            )),
            Some(db) => Ok(Response::json(&crate::cards::check::check(db))),
        },
        ("GET", "/api/cards/attack") => cards_attack(state, &pairs),
        (_, p) if p == "/" || p.starts_with("/api/") => Err(Failure::Bad(format!(
            "{method} {}: not served",
            crate::error::quote(p)
        ))),
        _ => return Response::error(404, "not found"),
    };
    match result {
        Ok(r) => r,
        Err(Failure::Bad(m)) => Response::error(400, &m),
        Err(Failure::Unprocessable(m)) => Response::error(422, &m),
    }
}

/// Answers one request within the bounds: the solve-heavy routes run within
/// the state's bound on solves at once and the time limit.
pub fn handle_bounded(state: &Arc<State>, method: &str, url: &str, body: Vec<u8>) -> Response {
    let heavy = url.starts_with("/api/") && !url.starts_with("/api/params");
    if !heavy {
        return handle(state, method, url, &body);
    }
    let (s, m, u) = (state.clone(), method.to_string(), url.to_string());
    bounded(state, move || handle(&s, &m, &u, &body))
}

/// How the server is started (the `serve` command's flags).
#[derive(Clone, Debug, clap::Args)]
pub struct ServeOptions {
    /// The address to listen on (127.0.0.1: this machine only).
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// The port (0: any free one).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// Open the page in a browser.
    #[arg(long)]
    pub open: bool,
}

/// Starts the server and answers requests until the process ends. Calls
/// `started` with the page's URL once it listens.
pub fn serve(state: State, opts: &ServeOptions, started: impl FnOnce(&str)) -> Result<()> {
    let server = tiny_http::Server::http((opts.host.as_str(), opts.port)).map_err(|e| {
        Error::input(format!(
            "serve: cannot listen on {}:{}: {e}",
            opts.host, opts.port
        ))
    })?;
    let port = server.server_addr().to_ip().map_or(opts.port, |a| a.port());
    let url = format!("http://{}:{port}/", opts.host);
    started(&url);
    if opts.open {
        for opener in ["xdg-open", "open"] {
            if std::process::Command::new(opener).arg(&url).spawn().is_ok() {
                break;
            }
        }
    }
    let state = Arc::new(state);
    let server = Arc::new(server);
    let workers: Vec<_> = (0..8)
        .map(|_| {
            let (server, state) = (server.clone(), state.clone());
            std::thread::spawn(move || {
                while let Ok(mut req) = server.recv() {
                    let method = req.method().as_str().to_string();
                    let url = req.url().to_string();
                    let mut body = Vec::new();
                    let too_big = {
                        use std::io::Read;
                        let r = req
                            .as_reader()
                            .take(MAX_BODY as u64 + 1)
                            .read_to_end(&mut body);
                        r.is_err() || body.len() > MAX_BODY
                    };
                    let resp = if too_big {
                        Response::error(413, &format!("the body is longer than {MAX_BODY} bytes"))
                    } else {
                        handle_bounded(&state, &method, &url, body)
                    };
                    let header = tiny_http::Header::from_bytes(
                        &b"Content-Type"[..],
                        resp.content_type.as_bytes(),
                    )
                    .expect("a valid header");
                    let _ = req.respond(
                        tiny_http::Response::from_data(resp.body)
                            .with_status_code(resp.status)
                            .with_header(header),
                    );
                }
            })
        })
        .collect();
    for w in workers {
        let _ = w.join();
    }
    Ok(())
}

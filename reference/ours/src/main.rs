//! This project's side of the reference protocol (`reference/PROTOCOL.md`):
//! JSON requests on stdin, one answer a line on stdout, computed by the
//! core's public API (`--via core`, the default) or by the C ABI
//! (`--via c --lib PATH`, the `libpulsar_routing` shared library).
//!
//! The differential driver (`reference/differential/`) compares these
//! answers with the Java program's, so nothing here may know what Java
//! answers: every value comes from the library under test.

mod c_abi;
mod core_api;
mod json;

use std::io::{self, BufRead, BufReader, BufWriter, Write};

use serde_json::{Map, Value, json};

/// Why a request got no answer of its own: a protocol problem, or an error
/// of the library with its kind (`Type::Variant`) and `Display` text.
#[derive(Debug)]
pub enum Failure {
    /// The request is malformed or names an unknown op.
    Protocol(String),
    /// The library refused the input.
    Library {
        /// `Type::Variant`, as `errors.py` maps it to a Java class.
        kind: String,
        /// The error's `Display`.
        message: String,
    },
}

impl Failure {
    /// A library error, its kind named from its `Debug` form, whose first
    /// word is the variant.
    pub fn of<E: std::fmt::Debug + std::fmt::Display>(type_name: &str, e: &E) -> Self {
        let debug = format!("{e:?}");
        let variant: String = debug
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        Self::Library {
            kind: format!("{type_name}::{variant}"),
            message: e.to_string(),
        }
    }

    /// The failure as the protocol's error fields (without `id` and `ok`).
    pub fn fields(&self) -> Map<String, Value> {
        let mut m = Map::new();
        match self {
            Self::Protocol(message) => {
                m.insert("error_class".into(), "protocol".into());
                m.insert("error_message".into(), message.clone().into());
            }
            Self::Library { kind, message } => {
                m.insert("error_kind".into(), kind.clone().into());
                m.insert("error_message".into(), message.clone().into());
            }
        }
        m
    }
}

/// What one answerer computes: the fields of a successful answer.
pub type Answer = Result<Map<String, Value>, Failure>;

/// An answerer: the core's API or the C ABI.
pub trait Answerer {
    /// Answers one request (its `op` already read).
    fn answer(&mut self, op: &str, req: &Value) -> Answer;
}

fn usage() -> ! {
    eprintln!(
        "usage: pulsar-routing-reference [--via core | --via c --lib PATH] [--topic-rules 4.2|v4|master]"
    );
    std::process::exit(2);
}

fn main() {
    let mut via = String::from("core");
    let mut lib: Option<String> = None;
    let mut rules = pulsar_routing::TopicNameRules::default();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--via" => via = args.next().unwrap_or_else(|| usage()),
            "--lib" => lib = Some(args.next().unwrap_or_else(|| usage())),
            "--topic-rules" => {
                rules = args
                    .next()
                    .and_then(|r| r.parse().ok())
                    .unwrap_or_else(|| usage())
            }
            _ => usage(),
        }
    }
    let mut answerer: Box<dyn Answerer> = match via.as_str() {
        "core" => Box::new(core_api::Core { rules }),
        "c" => {
            let path = lib.unwrap_or_else(|| usage());
            match c_abi::CAbi::load(&path) {
                Ok(c) => Box::new(c),
                Err(e) => {
                    eprintln!("pulsar-routing-reference: cannot load {path}: {e}");
                    std::process::exit(2);
                }
            }
        }
        _ => usage(),
    };

    let stdin = io::stdin();
    let mut input = BufReader::with_capacity(1 << 20, stdin.lock());
    let mut out = BufWriter::with_capacity(1 << 20, io::stdout().lock());
    let mut line = String::new();
    loop {
        line.clear();
        match input.read_line(&mut line) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) => {
                eprintln!("pulsar-routing-reference: reading stdin: {e}");
                std::process::exit(1);
            }
        }
        if line.trim().is_empty() {
            continue;
        }
        let answer = respond(answerer.as_mut(), &line);
        if writeln!(out, "{answer}").is_err() {
            std::process::exit(1);
        }
        // The driver sends blocks and then waits: flush once the block read
        // so far is answered, not after every line.
        if input.buffer().is_empty() && out.flush().is_err() {
            std::process::exit(1);
        }
    }
    let _ = out.flush();
}

fn respond(answerer: &mut dyn Answerer, line: &str) -> Value {
    let req: Value = match serde_json::from_str(line) {
        Ok(v) => v,
        Err(e) => {
            return json!({"id": null, "ok": false, "error_class": "protocol",
                          "error_message": format!("malformed request: {e}")});
        }
    };
    let id = req.get("id").cloned().unwrap_or(Value::Null);
    let result = match req.get("op").and_then(Value::as_str) {
        Some(op) => answerer.answer(op, &req),
        None => Err(Failure::Protocol("request has no op".into())),
    };
    let mut m = Map::new();
    m.insert("id".into(), id);
    match result {
        Ok(fields) => {
            m.insert("ok".into(), true.into());
            m.extend(fields);
        }
        Err(f) => {
            m.insert("ok".into(), false.into());
            m.extend(f.fields());
        }
    }
    Value::Object(m)
}

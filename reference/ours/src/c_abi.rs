//! Placeholder, replaced below.
use serde_json::Value;

use crate::{Answer, Answerer, Failure};

pub struct CAbi;

impl CAbi {
    pub fn load(_path: &str) -> Result<Self, String> {
        Ok(Self)
    }
}

impl Answerer for CAbi {
    fn answer(&mut self, op: &str, _req: &Value) -> Answer {
        Err(Failure::Protocol(format!("{op} not through the C ABI")))
    }
}

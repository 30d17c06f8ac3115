//! The database interface every store method is written against, whatever the backend (SQLite, PostgreSQL).
//!
//! A statement is SQL text with numbered placeholders (`?1`, `?2`, … — a backend that numbers them
//! otherwise rewrites them), its parameters are [`Param`]s (built with `params!`), and its
//! rows come back as [`Row`]s of [`Value`]s read with typed getters. A [`Database`] runs work either on one
//! connection (each statement committed on its own) or in one transaction. Functions that must run inside a
//! caller's transaction (`mark_rated_on`) take a `&dyn Conn`.

use std::sync::Arc;

use super::StoreError;

/// A parameter or a column: the few kinds of values the schema stores (a boolean is an integer, 0 or 1).
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Null,
    Int(i64),
    Real(f64),
    Text(String),
    /// A stored cell no column of the schema may hold (a blob, text that is not UTF-8: a hand-edited or
    /// damaged database), described. Read as a value rather than failing the query, so one damaged row costs
    /// only its own reader ([`Row::get`] answers [`StoreError::Unreadable`]), never the rows beside it. Never
    /// sent as a parameter.
    Unreadable(String),
}

/// Something a statement can take as a parameter.
pub trait Param {
    fn value(&self) -> Value;
}

macro_rules! int_param {
    ($($t:ty),*) => {$(
        impl Param for $t {
            fn value(&self) -> Value {
                Value::Int(i64::from(*self))
            }
        }
    )*};
}
int_param!(i64, i32, u32, u8, bool);

impl Param for u64 {
    fn value(&self) -> Value {
        // The store's u64s are milliseconds of clocks; one past i64::MAX (292 million years) saturates.
        Value::Int(i64::try_from(*self).unwrap_or(i64::MAX))
    }
}

impl Param for Value {
    fn value(&self) -> Value {
        self.clone()
    }
}

impl Param for f64 {
    fn value(&self) -> Value {
        Value::Real(*self)
    }
}

impl Param for str {
    fn value(&self) -> Value {
        Value::Text(self.to_string())
    }
}

impl Param for String {
    fn value(&self) -> Value {
        Value::Text(self.clone())
    }
}

impl<T: Param> Param for Option<T> {
    fn value(&self) -> Value {
        self.as_ref().map_or(Value::Null, Param::value)
    }
}

impl<T: Param + ?Sized> Param for &T {
    fn value(&self) -> Value {
        (**self).value()
    }
}

/// The parameters of a statement, in placeholder order: `params![id, m.ply]`.
macro_rules! params {
    ($($p:expr),* $(,)?) => {
        &[$(&$p as &dyn $crate::db::Param),*] as &[&dyn $crate::db::Param]
    };
}
pub(crate) use params;

/// A type a column can be read as.
pub trait FromValue: Sized {
    /// The value as `Self`; `None` when it is of another kind or out of range.
    fn from_value(value: &Value) -> Option<Self>;
}

macro_rules! int_from_value {
    ($($t:ty),*) => {$(
        impl FromValue for $t {
            fn from_value(value: &Value) -> Option<$t> {
                match value {
                    Value::Int(i) => <$t>::try_from(*i).ok(),
                    _ => None,
                }
            }
        }
    )*};
}
int_from_value!(i64, i32, u64, u32, u8);

impl FromValue for bool {
    fn from_value(value: &Value) -> Option<bool> {
        match value {
            Value::Int(i) => Some(*i != 0),
            _ => None,
        }
    }
}

impl FromValue for f64 {
    fn from_value(value: &Value) -> Option<f64> {
        match value {
            Value::Real(r) => Some(*r),
            // SQLite hands back a whole REAL it computed as an integer.
            Value::Int(i) => Some(*i as f64),
            _ => None,
        }
    }
}

impl FromValue for String {
    fn from_value(value: &Value) -> Option<String> {
        match value {
            Value::Text(t) => Some(t.clone()),
            _ => None,
        }
    }
}

impl<T: FromValue> FromValue for Option<T> {
    fn from_value(value: &Value) -> Option<Option<T>> {
        match value {
            Value::Null => Some(None),
            other => T::from_value(other).map(Some),
        }
    }
}

/// One row of a query's answer: its values, and its columns' names (shared by the rows of one answer) to
/// say which column holds a value that does not read.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    values: Vec<Value>,
    columns: Arc<[String]>,
}

impl Row {
    pub fn new(values: Vec<Value>, columns: Arc<[String]>) -> Row {
        Row { values, columns }
    }

    /// Column `i` (from 0) as a `T`.
    ///
    /// # Errors
    /// [`StoreError::Value`] when there is no such column (a bug of the query);
    /// [`StoreError::Unreadable`] when its value is not a `T` (a damaged row).
    pub fn get<T: FromValue>(&self, i: usize) -> Result<T, StoreError> {
        let value = self
            .values
            .get(i)
            .ok_or_else(|| StoreError::Value(format!("no column {i}")))?;
        T::from_value(value).ok_or_else(|| {
            let column = self.columns.get(i).map_or("?", String::as_str);
            let held = match value {
                Value::Null => "nothing".to_string(),
                Value::Int(i) => i.to_string(),
                Value::Real(r) => r.to_string(),
                Value::Text(t) => format!("{:?}", t.chars().take(40).collect::<String>()),
                Value::Unreadable(what) => what.clone(),
            };
            StoreError::Unreadable(format!(
                "column {column} holds {held}, not {}",
                type_words::<T>()
            ))
        })
    }
}

/// What a column read as `T` must hold, in words ("a whole number from 0 to 255").
fn type_words<T>() -> String {
    let name = std::any::type_name::<T>();
    let (optional, name) = match name
        .strip_prefix("core::option::Option<")
        .and_then(|n| n.strip_suffix('>'))
    {
        Some(inner) => (true, inner),
        None => (false, name),
    };
    let words = match name {
        "u8" => "a whole number from 0 to 255",
        "u32" => "a whole number from 0 to 4294967295",
        "u64" => "a whole number of at least 0",
        "i32" => "a 32-bit whole number",
        "i64" => "a whole number",
        "bool" => "a boolean (0 or 1)",
        "f64" => "a number",
        "alloc::string::String" => "text",
        other => other,
    };
    if optional {
        format!("{words} or nothing")
    } else {
        words.to_string()
    }
}

/// A connection, or a transaction on one: where statements run.
pub trait Conn {
    /// Runs a statement that answers no rows; how many rows it changed.
    ///
    /// # Errors
    /// When the statement fails (a constraint, a lost connection, …).
    fn execute(&self, sql: &str, params: &[&dyn Param]) -> Result<u64, StoreError>;

    /// Runs a query; all its rows.
    ///
    /// # Errors
    /// When the statement fails.
    fn query(&self, sql: &str, params: &[&dyn Param]) -> Result<Vec<Row>, StoreError>;

    /// What ends a `SELECT` of one table's rows so that it locks them until the transaction ends: on
    /// PostgreSQL `FOR UPDATE` (another transaction locking them waits until this one ends) or
    /// `FOR UPDATE SKIP LOCKED` (rows another transaction holds are passed over). Nothing on SQLite, whose
    /// transactions take the database's write lock when they begin: no other writer runs until they end.
    fn row_lock(&self, lock: RowLock) -> &'static str;

    /// An SQL expression for the database's clock at the moment it is evaluated, in whole milliseconds since
    /// the epoch (not the transaction's start: a transaction that waited for a lock sees the time it got it).
    fn clock_ms(&self) -> &'static str;
}

/// How a `SELECT` in a transaction locks the rows it reads ([`Conn::row_lock`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowLock {
    /// Waits for a row another transaction holds.
    Wait,
    /// Passes over rows another transaction holds (several nodes sharing out work).
    SkipLocked,
}

impl dyn Conn + '_ {
    /// A query's rows, each read by `read`.
    ///
    /// # Errors
    /// When the statement fails or a row does not read.
    pub fn query_map<T>(
        &self,
        sql: &str,
        params: &[&dyn Param],
        read: impl FnMut(&Row) -> Result<T, StoreError>,
    ) -> Result<Vec<T>, StoreError> {
        self.query(sql, params)?.iter().map(read).collect()
    }

    /// A query's rows that read, each read by `read`; a row that does not ([`StoreError::is_unreadable`]:
    /// a damaged row) is logged and left out, so a list stays usable beside one damaged entry.
    ///
    /// # Errors
    /// When the statement fails, or a row fails to read for another reason.
    pub fn query_readable<T>(
        &self,
        sql: &str,
        params: &[&dyn Param],
        mut read: impl FnMut(&Row) -> Result<T, StoreError>,
    ) -> Result<Vec<T>, StoreError> {
        let mut out = Vec::new();
        for row in self.query(sql, params)? {
            match read(&row) {
                Ok(item) => out.push(item),
                Err(e) if e.is_unreadable() => {
                    // The store's lists begin with the row's key (a game's id, a seek's id).
                    let key = row.get::<String>(0).unwrap_or_else(|_| "?".into());
                    tracing::warn!(row = %key, error = %e, "a damaged row was left out of a list");
                }
                Err(e) => return Err(e),
            }
        }
        Ok(out)
    }

    /// A query's first row read by `read`, if it has one.
    ///
    /// # Errors
    /// When the statement fails or the row does not read.
    pub fn query_opt<T>(
        &self,
        sql: &str,
        params: &[&dyn Param],
        read: impl FnOnce(&Row) -> Result<T, StoreError>,
    ) -> Result<Option<T>, StoreError> {
        self.query(sql, params)?.first().map(read).transpose()
    }

    /// A query's first row read by `read` (an aggregate's answer, which always has one).
    ///
    /// # Errors
    /// When the statement fails, answers no row, or the row does not read.
    pub fn query_one<T>(
        &self,
        sql: &str,
        params: &[&dyn Param],
        read: impl FnOnce(&Row) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        self.query_opt(sql, params, read)?
            .ok_or_else(|| StoreError::Value("the query answered no row".into()))
    }
}

/// A backend: runs work on its connections.
pub trait Database: Send + Sync + std::fmt::Debug {
    /// Runs `work` on one connection; each statement is committed on its own.
    ///
    /// # Errors
    /// When no connection can be had, or `work` fails.
    fn with_conn(
        &self,
        work: &mut dyn FnMut(&dyn Conn) -> Result<(), StoreError>,
    ) -> Result<(), StoreError>;

    /// Runs `work` in one transaction, committed when `work` answers `true`, rolled back when it answers
    /// `false` or fails. Nothing `work` wrote counts until the commit has succeeded. The rows a `SELECT`
    /// ending in [`Conn::row_lock`] read stay locked until the end.
    ///
    /// # Errors
    /// When no connection can be had, the transaction cannot begin or commit, or `work` fails.
    fn transaction(
        &self,
        work: &mut dyn FnMut(&dyn Conn) -> Result<bool, StoreError>,
    ) -> Result<(), StoreError>;

    /// Whether a statement may update rows in a `WITH` clause and insert from what it returns
    /// (PostgreSQL): a write that would take a transaction of several statements, each a round trip to the
    /// database, is then one statement. SQLite cannot, and needs not: its transactions run in this process.
    fn updates_in_with_clauses(&self) -> bool {
        false
    }

    /// Runs one statement awaited on the caller's runtime, its thread free meanwhile, where the backend can
    /// (PostgreSQL, with a connection opened on this runtime idle in the pool); `None` where it cannot, and
    /// the caller runs the statement the blocking way. Answers how many rows the statement changed.
    fn execute_awaited<'a>(&'a self, _sql: &'a str, _params: Vec<Value>) -> Option<Awaited<'a>> {
        None
    }
}

/// A statement's answer to await: [`Database::execute_awaited`].
pub type Awaited<'a> =
    std::pin::Pin<Box<dyn std::future::Future<Output = Result<u64, StoreError>> + Send + 'a>>;

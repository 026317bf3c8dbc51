//! One query layer for both databases: a statement is written once, in SQL
//! that SQLite and PostgreSQL both accept, and run through [`Sql`], which a
//! SQLite connection ([`Lite`]) and a PostgreSQL client ([`Pg`]) implement.
//!
//! The rules that make one text serve both:
//! - placeholders are `$1..$n` (PostgreSQL's); [`Lite`] runs them as
//!   SQLite's numbered `?1..?n`, so their order does not matter;
//! - column types are those both spell alike: `TEXT`, `BIGINT`, `DOUBLE
//!   PRECISION` (SQLite gives them its integer and real affinities); no
//!   `BOOLEAN` (a flag is a `BIGINT` 0/1 or a nullable time), no `BLOB`
//!   or `BYTEA` (binary data is stored as text: JSON, hex), no
//!   autoincrement (ids are random text);
//! - `ON CONFLICT ... DO NOTHING`, `RETURNING`, `lower()`, `coalesce()`
//!   and `IS NULL` mean the same in both.
//!
//! Parameters and columns are [`Value`]s; a parameter adapts to the type
//! PostgreSQL infers for its place (an [`Value::Int`] binds to `INTEGER`
//! as well as `BIGINT`), so callers never name a database's types.

use super::error::StoreError;
use std::borrow::Cow;

/// A parameter or a column's value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Null,
    Int(i64),
    Real(f64),
    Text(String),
}

impl From<i64> for Value {
    fn from(v: i64) -> Value {
        Value::Int(v)
    }
}
impl From<i32> for Value {
    fn from(v: i32) -> Value {
        Value::Int(v.into())
    }
}
impl From<bool> for Value {
    fn from(v: bool) -> Value {
        Value::Int(v.into())
    }
}
impl From<&str> for Value {
    fn from(v: &str) -> Value {
        Value::Text(v.to_owned())
    }
}
impl From<String> for Value {
    fn from(v: String) -> Value {
        Value::Text(v)
    }
}
impl From<&String> for Value {
    fn from(v: &String) -> Value {
        Value::Text(v.clone())
    }
}
impl From<f64> for Value {
    fn from(v: f64) -> Value {
        Value::Real(v)
    }
}
impl<T: Into<Value>> From<Option<T>> for Value {
    fn from(v: Option<T>) -> Value {
        v.map_or(Value::Null, Into::into)
    }
}

/// The parameters of a statement, each turned into a [`Value`].
#[macro_export]
macro_rules! sql_params {
    ($($value:expr),* $(,)?) => {
        &[$($crate::Value::from($value)),*]
    };
}

/// One row of a query's answer.
#[derive(Clone, Debug, PartialEq)]
pub struct Row(pub Vec<Value>);

fn column_error(index: usize, wanted: &str, found: &Value) -> StoreError {
    StoreError::Database(format!("column {index}: expected {wanted}, found {found:?}"))
}

impl Row {
    fn at(&self, index: usize) -> Result<&Value, StoreError> {
        self.0.get(index).ok_or_else(|| StoreError::Database(format!("no column {index}")))
    }
    pub fn text(&self, index: usize) -> Result<String, StoreError> {
        self.opt_text(index)?.ok_or_else(|| column_error(index, "text", &Value::Null))
    }
    pub fn opt_text(&self, index: usize) -> Result<Option<String>, StoreError> {
        match self.at(index)? {
            Value::Null => Ok(None),
            Value::Text(text) => Ok(Some(text.clone())),
            other => Err(column_error(index, "text", other)),
        }
    }
    pub fn int(&self, index: usize) -> Result<i64, StoreError> {
        self.opt_int(index)?.ok_or_else(|| column_error(index, "an integer", &Value::Null))
    }
    pub fn opt_int(&self, index: usize) -> Result<Option<i64>, StoreError> {
        match self.at(index)? {
            Value::Null => Ok(None),
            Value::Int(v) => Ok(Some(*v)),
            other => Err(column_error(index, "an integer", other)),
        }
    }
    /// A real number (SQLite may hand back a whole one as an integer).
    pub fn real(&self, index: usize) -> Result<f64, StoreError> {
        match self.at(index)? {
            Value::Real(v) => Ok(*v),
            Value::Int(v) => Ok(*v as f64),
            other => Err(column_error(index, "a number", other)),
        }
    }
}

/// A connection of either database, inside a transaction.
pub trait Sql {
    /// Runs a statement; answers the number of rows it changed.
    fn execute(&mut self, sql: &str, params: &[Value]) -> Result<u64, StoreError>;
    /// Runs a query; answers its rows.
    fn query(&mut self, sql: &str, params: &[Value]) -> Result<Vec<Row>, StoreError>;
    /// Runs statements without parameters, separated by `;` (migrations).
    fn batch(&mut self, sql: &str) -> Result<(), StoreError>;

    /// The first row of a query, if any.
    fn query_opt(&mut self, sql: &str, params: &[Value]) -> Result<Option<Row>, StoreError> {
        Ok(self.query(sql, params)?.into_iter().next())
    }
}

/// What a store's [`super::Store::transact`] runs: one transaction's work.
pub type Work<'a> = dyn FnMut(&mut dyn Sql) -> Result<(), StoreError> + Send + 'a;

/// Runs `work` through `store` in one transaction and answers what it
/// answered.
pub fn transact<T: Send>(
    store: &dyn super::Store,
    mut work: impl FnMut(&mut dyn Sql) -> Result<T, StoreError> + Send,
) -> Result<T, StoreError> {
    let mut answer = None;
    store.transact(&mut |sql: &mut dyn Sql| {
        answer = Some(work(sql)?);
        Ok(())
    })?;
    answer.ok_or_else(|| StoreError::Database("the transaction answered nothing".into()))
}

/// [`transact`] for work that only reads ([`super::Store::read`]).
pub fn read<T: Send>(
    store: &dyn super::Store,
    mut work: impl FnMut(&mut dyn Sql) -> Result<T, StoreError> + Send,
) -> Result<T, StoreError> {
    let mut answer = None;
    store.read(&mut |sql: &mut dyn Sql| {
        answer = Some(work(sql)?);
        Ok(())
    })?;
    answer.ok_or_else(|| StoreError::Database("the transaction answered nothing".into()))
}

/// A SQLite connection (or transaction: it derefs to one).
pub struct Lite<'a>(pub &'a rusqlite::Connection);

/// `$N` placeholders as SQLite's `?N` (outside quoted text).
fn numbered(sql: &str) -> Cow<'_, str> {
    if !sql.contains('$') {
        return Cow::Borrowed(sql);
    }
    let mut out = String::with_capacity(sql.len());
    let mut quoted = false;
    let mut chars = sql.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' => quoted = !quoted,
            '$' if !quoted && chars.peek().is_some_and(char::is_ascii_digit) => {
                out.push('?');
                continue;
            }
            _ => {}
        }
        out.push(c);
    }
    Cow::Owned(out)
}

fn lite_error(error: rusqlite::Error) -> StoreError {
    StoreError::Database(error.to_string())
}

impl rusqlite::ToSql for Value {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        use rusqlite::types::{ToSqlOutput, ValueRef};
        Ok(match self {
            Value::Null => ToSqlOutput::Borrowed(ValueRef::Null),
            Value::Int(v) => ToSqlOutput::Borrowed(ValueRef::Integer(*v)),
            Value::Real(v) => ToSqlOutput::Borrowed(ValueRef::Real(*v)),
            Value::Text(v) => ToSqlOutput::Borrowed(ValueRef::Text(v.as_bytes())),
        })
    }
}

fn lite_value(value: rusqlite::types::ValueRef<'_>) -> rusqlite::Result<Value> {
    use rusqlite::types::ValueRef;
    Ok(match value {
        ValueRef::Null => Value::Null,
        ValueRef::Integer(v) => Value::Int(v),
        ValueRef::Real(v) => Value::Real(v),
        ValueRef::Text(v) => Value::Text(String::from_utf8_lossy(v).into_owned()),
        ValueRef::Blob(_) => {
            return Err(rusqlite::Error::InvalidColumnType(0, "blob".into(), rusqlite::types::Type::Blob))
        }
    })
}

impl Sql for Lite<'_> {
    fn execute(&mut self, sql: &str, params: &[Value]) -> Result<u64, StoreError> {
        let mut statement = self.0.prepare_cached(&numbered(sql)).map_err(lite_error)?;
        statement.execute(rusqlite::params_from_iter(params)).map(|n| n as u64).map_err(lite_error)
    }

    fn query(&mut self, sql: &str, params: &[Value]) -> Result<Vec<Row>, StoreError> {
        let mut statement = self.0.prepare_cached(&numbered(sql)).map_err(lite_error)?;
        let width = statement.column_count();
        let rows = statement
            .query_map(rusqlite::params_from_iter(params), |row| {
                (0..width).map(|i| lite_value(row.get_ref(i)?)).collect::<rusqlite::Result<Vec<_>>>().map(Row)
            })
            .map_err(lite_error)?;
        rows.collect::<Result<Vec<_>, _>>().map_err(lite_error)
    }

    fn batch(&mut self, sql: &str) -> Result<(), StoreError> {
        self.0.execute_batch(sql).map_err(lite_error)
    }
}

/// A PostgreSQL client or transaction.
pub struct Pg<'a, C: postgres::GenericClient>(pub &'a mut C);

fn pg_error(error: postgres::Error) -> StoreError {
    StoreError::Database(error.to_string())
}

impl postgres::types::ToSql for Value {
    fn to_sql(
        &self,
        ty: &postgres::types::Type,
        out: &mut bytes::BytesMut,
    ) -> Result<postgres::types::IsNull, Box<dyn std::error::Error + Sync + Send>> {
        use postgres::types::{IsNull, Type};
        match self {
            Value::Null => Ok(IsNull::Yes),
            Value::Int(v) => match *ty {
                Type::INT2 => i16::try_from(*v)?.to_sql(ty, out),
                Type::INT4 => i32::try_from(*v)?.to_sql(ty, out),
                Type::BOOL => (*v != 0).to_sql(ty, out),
                Type::FLOAT8 => (*v as f64).to_sql(ty, out),
                _ => v.to_sql(ty, out),
            },
            Value::Real(v) => match *ty {
                Type::FLOAT4 => (*v as f32).to_sql(ty, out),
                _ => v.to_sql(ty, out),
            },
            Value::Text(v) => v.to_sql(ty, out),
        }
    }

    fn accepts(_: &postgres::types::Type) -> bool {
        true
    }

    postgres::types::to_sql_checked!();
}

fn pg_row(row: &postgres::Row) -> Result<Row, StoreError> {
    use postgres::types::Type;
    let mut values = Vec::with_capacity(row.len());
    for (i, column) in row.columns().iter().enumerate() {
        let value = match *column.type_() {
            Type::BOOL => row.try_get::<_, Option<bool>>(i).map(|v| v.map(|b| Value::Int(b.into()))),
            Type::INT2 => row.try_get::<_, Option<i16>>(i).map(|v| v.map(|n| Value::Int(n.into()))),
            Type::INT4 => row.try_get::<_, Option<i32>>(i).map(|v| v.map(|n| Value::Int(n.into()))),
            Type::INT8 => row.try_get::<_, Option<i64>>(i).map(|v| v.map(Value::Int)),
            Type::FLOAT4 => row.try_get::<_, Option<f32>>(i).map(|v| v.map(|n| Value::Real(n.into()))),
            Type::FLOAT8 => row.try_get::<_, Option<f64>>(i).map(|v| v.map(Value::Real)),
            _ => row.try_get::<_, Option<String>>(i).map(|v| v.map(Value::Text)),
        };
        values.push(value.map_err(pg_error)?.unwrap_or(Value::Null));
    }
    Ok(Row(values))
}

fn pg_params(params: &[Value]) -> Vec<&(dyn postgres::types::ToSql + Sync)> {
    params.iter().map(|p| p as &(dyn postgres::types::ToSql + Sync)).collect()
}

impl<C: postgres::GenericClient> Sql for Pg<'_, C> {
    fn execute(&mut self, sql: &str, params: &[Value]) -> Result<u64, StoreError> {
        self.0.execute(sql, &pg_params(params)).map_err(pg_error)
    }

    fn query(&mut self, sql: &str, params: &[Value]) -> Result<Vec<Row>, StoreError> {
        self.0.query(sql, &pg_params(params)).map_err(pg_error)?.iter().map(pg_row).collect()
    }

    fn batch(&mut self, sql: &str) -> Result<(), StoreError> {
        self.0.batch_execute(sql).map_err(pg_error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_become_sqlites_numbered_ones_outside_quoted_text() {
        assert_eq!(numbered("SELECT a FROM t WHERE b = $2 AND c = $1"), "SELECT a FROM t WHERE b = ?2 AND c = ?1");
        assert_eq!(numbered("SELECT '$1', $10"), "SELECT '$1', ?10");
        assert_eq!(numbered("SELECT 1"), "SELECT 1");
    }

    #[test]
    fn values_round_trip_through_sqlite_in_any_placeholder_order() {
        let connection = rusqlite::Connection::open_in_memory().unwrap();
        let mut sql = Lite(&connection);
        sql.batch("CREATE TABLE t (a TEXT, b BIGINT, c DOUBLE PRECISION)").unwrap();
        let n = sql.execute("INSERT INTO t (c, b, a) VALUES ($3, $2, $1)", sql_params!["x", 7, 1.5]).unwrap();
        assert_eq!(n, 1);
        sql.execute("INSERT INTO t (a, b, c) VALUES ($1, $2, $3)", sql_params![None::<String>, None::<i64>, 2])
            .unwrap();
        let rows = sql.query("SELECT a, b, c FROM t ORDER BY c", &[]).unwrap();
        assert_eq!(rows[0], Row(vec![Value::Text("x".into()), Value::Int(7), Value::Real(1.5)]));
        assert_eq!((rows[1].opt_text(0).unwrap(), rows[1].opt_int(1).unwrap()), (None, None));
        assert_eq!(rows[1].real(2).unwrap(), 2.0);
        assert!(rows[0].int(0).is_err(), "a text is no integer");
        assert!(sql.query_opt("SELECT a FROM t WHERE b = $1", sql_params![8]).unwrap().is_none());
    }
}

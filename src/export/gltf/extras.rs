//! `extras` objects: what the scene says that glTF has no field for, kept
//! beside the nearest glTF mapping so nothing is silently lost.

use std::string::String;

use gltf_json as json;

use serde_json::{Map, Value};

/// A JSON object of `fields` as an `extras` value; none when empty.
pub fn object(fields: Map<String, Value>) -> json::Extras {
    if fields.is_empty() {
        return None;
    }
    serde_json::value::to_raw_value(&Value::Object(fields)).ok()
}

/// `{"visible": false}` for hidden nodes and meshes (glTF shows everything).
pub fn visibility(visible: bool) -> json::Extras {
    let mut fields = Map::new();
    if !visible {
        fields.insert(String::from("visible"), Value::Bool(false));
    }
    object(fields)
}

/// The text of an `extras` value, for tests.
#[cfg(test)]
pub fn text(extras: &json::Extras) -> &str {
    extras
        .as_deref()
        .map_or("", serde_json::value::RawValue::get)
}

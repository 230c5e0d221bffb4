#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| swtcg_odds::fuzzing::scenario_json(data));

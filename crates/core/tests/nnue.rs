//! The network file and the accumulators, on networks of random weights
//! (each game's inputs and its trained network are checked by the games'
//! registry tests, `check_learned_inputs`).

use menagerie_core::nnue::{Accumulator, Base, FloatNetwork, Network, Update};
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

fn random_float(inputs: usize, hidden: usize, seed: u64) -> FloatNetwork {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut weights =
        |count: usize, bound: f32| -> Vec<f32> { (0..count).map(|_| rng.random_range(-bound..bound)).collect() };
    FloatNetwork {
        inputs,
        hidden,
        input_weights: weights(inputs * hidden, 0.6),
        hidden_biases: weights(hidden, 0.6),
        output_weights: weights(2 * hidden, 0.5),
        output_bias: -0.25,
    }
}

fn random_network(inputs: usize, hidden: usize, seed: u64) -> Network {
    random_float(inputs, hidden, seed).quantize("test-1", "game: test\nseed: 7", Base::Tuned).unwrap()
}

#[test]
fn a_network_file_reads_back_the_same_network() {
    let network = random_network(300, 24, 1);
    let bytes = network.to_bytes();
    let read = Network::from_bytes(&bytes).unwrap();
    assert_eq!(read, network);
    assert_eq!(read.to_bytes(), bytes);
    assert_eq!(read.features, "test-1");
    assert_eq!(read.base, Base::Tuned);
    assert_eq!(read.about_value("seed"), Some("7"));
    assert_eq!(read.about_value("game"), Some("test"));
    assert_eq!(read.about_value("missing"), None);
}

#[test]
fn a_dequantized_network_quantizes_back_to_the_same_weights() {
    for (inputs, hidden, seed) in [(300, 24, 5), (40, 1, 6), (1, 64, 7)] {
        let mut float = random_float(inputs, hidden, seed);
        // The extremes of 16 bits, and an output bias far from 1.0, survive.
        float.input_weights[0] = f32::from(i16::MAX) / 255.0;
        float.hidden_biases[0] = f32::from(i16::MIN) / 255.0;
        float.output_bias = 37.3;
        let network = float.quantize("test-1", "game: test", Base::Tuned).unwrap();
        let back = network.dequantize();
        assert_eq!((back.inputs, back.hidden), (inputs, hidden));
        assert_ne!(back, float, "rounding to the scales changes the weights");
        let again = back.quantize("test-1", "game: test", Base::Tuned).unwrap();
        assert_eq!(again, network);
        assert_eq!(again.to_bytes(), network.to_bytes());
    }
}

#[test]
fn every_cut_and_every_damaged_byte_of_a_network_file_is_an_error_not_a_panic() {
    let bytes = random_network(40, 8, 2).to_bytes();
    for cut in 0..bytes.len() {
        assert!(Network::from_bytes(&bytes[..cut]).is_err(), "cut at {cut} read");
    }
    for at in 0..bytes.len() {
        let mut damaged = bytes.clone();
        damaged[at] ^= 0x41;
        assert!(Network::from_bytes(&damaged).is_err(), "byte {at} damaged read");
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(Network::from_bytes(&longer).is_err());
    assert!(Network::from_bytes(b"MNGRNNUE").is_err());
    assert!(Network::from_bytes(b"not a network at all").unwrap_err().to_string().contains("MNGRNNUE"));
}

#[test]
fn quantization_refuses_weights_beyond_16_bits_and_a_wrong_shape() {
    let mut float = random_float(10, 4, 3);
    float.input_weights[5] = 200.0;
    assert!(float.quantize("test-1", "", Base::Nothing).unwrap_err().to_string().contains("16 bits"));
    let mut float = random_float(10, 4, 3);
    float.output_weights.pop();
    assert!(float.quantize("test-1", "", Base::Nothing).is_err());
}

#[test]
fn the_integer_network_follows_the_float_one() {
    let float = random_float(200, 32, 4);
    let network = float.quantize("test-1", "", Base::Nothing).unwrap();
    let mut rng = StdRng::seed_from_u64(9);
    for _ in 0..200 {
        let mut own: Vec<u16> = (0..20).map(|_| rng.random_range(0..200)).collect();
        let mut theirs: Vec<u16> = (0..20).map(|_| rng.random_range(0..200)).collect();
        own.sort_unstable();
        theirs.sort_unstable();
        let exact = float.evaluate(&own, &theirs);
        let integer = network.evaluate(&own, &theirs) as f32;
        // Rounding each weight to 1/255 and 1/64 moves the output by a few
        // centi-units at most on outputs of hundreds.
        assert!((exact - integer).abs() <= 8.0 + exact.abs() * 0.02, "float {exact}, integer {integer}");
    }
}

proptest! {
    /// Whatever inputs an accumulator holds and whatever it is given next
    /// (in any order, duplicates included), the update by difference equals
    /// a sum from scratch, and a change of one input is one row, not a
    /// refresh.
    #[test]
    fn an_accumulator_updated_by_difference_equals_one_built_from_scratch(
        steps in prop::collection::vec(prop::collection::vec(0u16..120, 0..40), 1..12),
    ) {
        let network = random_network(120, 16, 5);
        let mut accumulator = Accumulator::new();
        for inputs in steps {
            accumulator.update(&network, &inputs);
            prop_assert_eq!(accumulator.units(), &network.accumulate(&inputs)[..]);
            prop_assert_eq!(accumulator.inputs(), &inputs[..]);
            // One more, anywhere in the list.
            let mut more = inputs.clone();
            more.insert(inputs.len() / 2, 119);
            prop_assert_eq!(accumulator.update(&network, &more), Update::Incremental { added: 1, removed: 0 });
            prop_assert_eq!(accumulator.units(), &network.accumulate(&more)[..]);
            // The same inputs in another order change nothing.
            let mut reversed = more.clone();
            reversed.reverse();
            prop_assert_eq!(accumulator.update(&network, &reversed), Update::Incremental { added: 0, removed: 0 });
            prop_assert_eq!(accumulator.units(), &network.accumulate(&more)[..]);
            // Back to none is a refresh: summing no rows is cheaper than one.
            let back = if inputs.is_empty() { Update::Refreshed } else { Update::Incremental { added: 0, removed: 1 } };
            prop_assert_eq!(accumulator.update(&network, &inputs), back);
            prop_assert_eq!(accumulator.units(), &network.accumulate(&inputs)[..]);
        }
    }
}

#[test]
fn the_first_update_and_a_change_of_most_inputs_refresh() {
    let network = random_network(100, 8, 6);
    let mut accumulator = Accumulator::new();
    assert_eq!(accumulator.update(&network, &[1, 2, 3]), Update::Refreshed);
    assert_eq!(accumulator.update(&network, &[1, 2, 4]), Update::Incremental { added: 1, removed: 1 });
    assert_eq!(accumulator.update(&network, &[50, 60, 70]), Update::Refreshed);
    assert_eq!(accumulator.units(), &network.accumulate(&[50, 60, 70])[..]);
    // After a refresh half-way through the changes, the next update is by
    // difference again, from exactly the inputs refreshed.
    assert_eq!(accumulator.update(&network, &[70, 60, 50, 50]), Update::Incremental { added: 1, removed: 0 });
    assert_eq!(accumulator.units(), &network.accumulate(&[50, 50, 60, 70])[..]);
}

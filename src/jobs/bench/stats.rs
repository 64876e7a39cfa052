//! Mean, spread and range of repeated measurements.

use serde::Serialize;

/// The summary of a set of run figures.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Summary {
    /// Arithmetic mean.
    pub mean: f64,
    /// Sample standard deviation (n - 1 in the denominator, as hyperfine reports; 0 for
    /// fewer than two values).
    pub stddev: f64,
    /// Smallest value.
    pub min: f64,
    /// Largest value.
    pub max: f64,
}

impl Summary {
    /// Summarise `values` (all zeros when empty).
    pub fn of(values: &[f64]) -> Summary {
        if values.is_empty() {
            return Summary::default();
        }
        let n = values.len() as f64;
        let mean = values.iter().sum::<f64>() / n;
        let stddev = if values.len() < 2 {
            0.0
        } else {
            let squares: f64 = values.iter().map(|v| (v - mean) * (v - mean)).sum();
            (squares / (n - 1.0)).sqrt()
        };
        Summary {
            mean,
            stddev,
            min: values.iter().copied().fold(f64::INFINITY, f64::min),
            max: values.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sample_standard_deviation() {
        // 2, 4, 4, 4, 5, 5, 7, 9: mean 5, squared deviations sum to 32, 32 / 7.
        let s = Summary::of(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]);
        assert_eq!(s.mean, 5.0);
        assert!((s.stddev - (32.0f64 / 7.0).sqrt()).abs() < 1e-12);
        assert_eq!((s.min, s.max), (2.0, 9.0));
    }

    #[test]
    fn one_value_has_no_spread_and_none_is_all_zero() {
        let s = Summary::of(&[3.5]);
        assert_eq!((s.mean, s.stddev, s.min, s.max), (3.5, 0.0, 3.5, 3.5));
        assert_eq!(Summary::of(&[]), Summary::default());
    }
}

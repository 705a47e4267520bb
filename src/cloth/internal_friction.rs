//! Internal friction: how cloth loses its last small motion and falls asleep.
//!
//! Real fabric dissipates energy when it deforms (its yarns rub at their
//! crossings), with a Coulomb-like hysteresis: it stops jiggling within a
//! few cycles and rests in a slightly deformed shape (Miguel et al. 2013,
//! "Modeling and estimation of internal friction in cloth", ACM TOG 32(6)).
//! Without it a draped cloth kept swaying at 3-30 cm/s for as long as it was
//! watched, over the sleep speed, and never slept (issue 32).
//!
//! Here it acts on the velocity of each particle relative to the body's
//! rigid motion, as Müller et al.'s damping does ("Position based
//! dynamics", 2007, section 3.5), but as kinetic friction instead of a
//! viscous fraction. With masses `m_i`, positions `x_i`, velocities `v_i`
//! of the moving particles (pinned ones have no mass to take part):
//!
//! ```text
//! x_cm = sum m_i x_i / M,  v_cm = sum m_i v_i / M,  r_i = x_i - x_cm
//! L = sum r_i x m_i v_i,   I = sum m_i (r_i . r_i 1 - r_i r_i^T),  w = I^-1 L
//! dv_i = v_i - (v_cm + w x r_i)                   the deformation's velocity
//! v_i -= dv_i min(1, a dt / |dv_i|)               at most a dt per step
//! ```
//!
//! It is applied once a step, after the substeps (see `solver`), not once a
//! substep: a pass over the particles per step instead of one per substep
//! (applied every substep it cost 30-56 % of a cloth's step). A relative
//! speed under `a dt` is taken out at once; a larger one loses `a dt` (a
//! deceleration of `a`, as when applied every substep). Clamped changes no
//! longer sum to zero, so the rigid motion they sum to (their momentum and
//! angular momentum, as above) is taken back out of them: internal friction
//! is an internal force, and a cloth yanked by a joint keeps the pair's
//! momentum. Free fall, a throw and a swing about the pins as a whole (an
//! apron on a stopped frame) are rigid motions and keep their velocity (up
//! to the rounding of the fit); a cape flapping at 2 m/s loses `a` per
//! second of it against forces of order `g`.

use crate::constraints::shape_match::MIN_INV_MASS;
use crate::particles::ParticlesMut;
use glam::{DMat3, DVec3};

/// The deceleration `a` (m/s^2) internal friction applies to the velocity
/// relative to a cloth's rigid motion: 2 % of gravity. Small enough that a
/// cloth's visible motion is unchanged, large enough that the drape of a
/// tablecloth stops swaying within seconds.
pub(crate) const INTERNAL_FRICTION: f32 = 0.2;

/// Applies one step's internal friction, `a_h = a dt` (m/s), to the
/// velocities of a cloth's particles.
///
/// Three passes over the particles: the sums of the fit (its inertia from
/// second moments about the frame's origin, shifted to the centre), the
/// changes, and the rigid motion the clamped ones sum to taken back out
/// (skipped when none was clamped: the changes then sum to none, up to
/// rounding).
pub fn apply(p: &mut ParticlesMut, a_h: f32) {
    // Sums in f64: a body's particles sit near its frame's origin, but
    // their squared offsets and products span more than f32 holds well.
    let n = p.len();
    let (mut mass, mut xm, mut vm, mut xv) = (0.0f64, DVec3::ZERO, DVec3::ZERO, DVec3::ZERO);
    let (mut diagonal, mut off) = (DVec3::ZERO, DVec3::ZERO); // sum m x_k x_k; sum m (y z, z x, x y)
    for i in 0..n {
        let w = p.inv_mass[i];
        if w > 0.0 {
            // A mass above a pinned one's weighs as one (the C ABI takes
            // any inverse mass > 0: one of 1.7e-38 made the fit's turn
            // overflow f32 and the velocities NaN, found by the fuzzer).
            let m = 1.0 / f64::from(w.max(MIN_INV_MASS));
            let (x, v) = (p.position(i).as_dvec3(), p.velocity(i).as_dvec3());
            let (mx, mv) = (x * m, v * m);
            mass += m;
            xm += mx;
            vm += mv;
            xv += x.cross(mv);
            diagonal += x * mx;
            off += DVec3::new(x.y, x.z, x.x) * DVec3::new(mx.z, mx.x, mx.y);
        }
    }
    if mass == 0.0 {
        return;
    }
    let (x_cm, v_cm) = (xm / mass, vm / mass);
    // About the centre: L = sum m r x v' = sum m x x v - M c x v_cm, and
    // the second moments less M c c^T.
    let l = xv - x_cm.cross(vm);
    let diagonal = diagonal - x_cm * xm;
    let off = off - DVec3::new(x_cm.y, x_cm.z, x_cm.x) * DVec3::new(xm.z, xm.x, xm.y);
    let trace = diagonal.x + diagonal.y + diagonal.z;
    // I = sum m (r . r 1 - r r^T).
    let inertia = DMat3::from_cols(
        DVec3::new(trace - diagonal.x, -off.z, -off.y),
        DVec3::new(-off.z, trace - diagonal.y, -off.x),
        DVec3::new(-off.y, -off.x, trace - diagonal.z),
    );
    // Particles in a line have no inertia about it: no turn about it is
    // fitted, and a spin about it counts as deformation.
    let scale = trace * 2.0;
    let invertible = inertia.determinant().abs() > 1e-9 * scale * scale * scale;
    let inverse = if invertible { inertia.inverse() } else { DMat3::ZERO };
    let (x_cm32, v_cm32, omega) = (x_cm.as_vec3(), v_cm.as_vec3(), (inverse * l).as_vec3());
    // It runs after the step's check for non-finite state: a fit beyond
    // f32 leaves the velocities as they are.
    if !(x_cm32.is_finite() && v_cm32.is_finite() && omega.is_finite()) {
        return;
    }
    // The changes, each at most a h; then the rigid motion they sum to
    // (none unless a change was clamped), taken back out of them.
    let (mut dp, mut dl, mut clamped) = (DVec3::ZERO, DVec3::ZERO, false);
    for i in 0..n {
        let w = p.inv_mass[i];
        if w > 0.0 {
            let (v, r) = (p.velocity(i), p.position(i) - x_cm32);
            let dv = v - (v_cm32 + omega.cross(r));
            let speed = dv.length();
            if !speed.is_finite() {
                continue; // beyond f32: left as it is
            }
            let change = if speed > a_h {
                clamped = true;
                -dv * (a_h / speed)
            } else {
                -dv
            };
            p.set_velocity(i, v + change);
            let d = change.as_dvec3() / f64::from(w.max(MIN_INV_MASS));
            dp += d;
            dl += r.as_dvec3().cross(d);
        }
    }
    if !clamped {
        return;
    }
    let (dv_cm, d_omega) = ((dp / mass).as_vec3(), (inverse * dl).as_vec3());
    if !(dv_cm.is_finite() && d_omega.is_finite()) {
        return;
    }
    for i in 0..n {
        if p.inv_mass[i] > 0.0 {
            let (v, r) = (p.velocity(i), p.position(i) - x_cm32);
            p.set_velocity(i, v - (dv_cm + d_omega.cross(r)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::particles::Particles;
    use glam::Vec3;

    /// A bent 4 x 4 grid, its first particle pinned when `pin`.
    fn cloth(pin: bool, velocity: impl Fn(Vec3) -> Vec3) -> Particles {
        let mut p = Particles::default();
        let grid: Vec<Vec3> =
            (0..16).map(|i| Vec3::new((i % 4) as f32, 0.1 * (i / 4) as f32, (i / 4) as f32)).collect();
        p.append(&grid, |i| if pin && i == 0 { 0.0 } else { 2.0 });
        for (i, &x) in grid.iter().enumerate() {
            p.view(0..p.len()).set_velocity(i, velocity(x));
        }
        p
    }

    #[test]
    fn rigid_motion_keeps_its_velocity() {
        let motion = |x: Vec3| Vec3::new(1.0, -3.0, 0.5) + Vec3::new(0.3, -1.0, 2.0).cross(x);
        let mut p = cloth(true, motion);
        let before: Vec<Vec3> = (0..16).map(|i| p.view(0..p.len()).velocity(i)).collect();
        apply(&mut p.view(0..p.len()), 0.2 / 480.0);
        let v = p.view(0..p.len());
        for (i, b) in before.iter().enumerate().skip(1) {
            assert!(v.velocity(i).distance(*b) < 1e-5, "{i}: {} from {b}", v.velocity(i));
        }
    }

    #[test]
    fn momentum_is_kept_when_changes_are_clamped() {
        let jerk = |x: Vec3| Vec3::new(x.z * x.z, 3.0 * x.x - x.y * 7.0, (x.x * x.z).sin());
        let mut p = cloth(true, jerk);
        let momenta = |p: &mut Particles| {
            let v = p.view(0..p.len());
            let (mut linear, mut angular) = (Vec3::ZERO, Vec3::ZERO);
            for i in 1..16 {
                linear += v.velocity(i) * 0.5;
                angular += v.position(i).cross(v.velocity(i) * 0.5);
            }
            (linear, angular)
        };
        let (before, after_a) = (momenta(&mut p), {
            apply(&mut p.view(0..p.len()), 0.5);
            momenta(&mut p)
        });
        assert!(before.0.distance(after_a.0) < 1e-5 && before.1.distance(after_a.1) < 1e-5, "{before:?} {after_a:?}");
        let moved = (0..16).map(|i| p.view(0..p.len()).velocity(i).distance(jerk(p.view(0..p.len()).position(i))));
        assert!(moved.fold(0.0, f32::max) > 0.1, "the deformation lost nothing");
    }

    #[test]
    fn small_relative_motion_stops_and_large_loses_a_h() {
        // Columns up, down, down, up: no momentum, linear or angular.
        let wobble = |s: f32| move |x: Vec3| Vec3::new(0.0, s * ((x.x - 1.5).abs() - 1.0).signum(), 0.0);
        for (speed, left) in [(1e-4, 0.0), (1.0, 1.0 - 0.01)] {
            let mut p = cloth(false, wobble(speed));
            apply(&mut p.view(0..p.len()), 0.01);
            let v = p.view(0..p.len());
            for i in 0..16 {
                assert!((v.velocity(i).y.abs() - left * speed).abs() < 1e-5, "{i}: {}", v.velocity(i));
            }
        }
    }
}

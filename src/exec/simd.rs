//! Lane widths and target features: the only file that knows them.
//!
//! A kernel is written once, generic over its lane count `W`, with plain
//! per-lane loops over `[f32; W]` arrays (no intrinsics). [`dispatch`] runs it
//! inside a function compiled for the chosen instruction set, where the
//! compiler turns those loops into vector instructions of that width.
//!
//! Why every level gives the same bits: each lane performs exactly the
//! operations the scalar code performs, in the same order. Rust never fuses a
//! multiply and an add (no FMA contraction) and never reassociates floats,
//! and IEEE division and square root are exact in every width. A branch
//! becomes a select of two computed values, which picks the same value the
//! branch would have. The unit tests below and `tests/determinism.rs` (the
//! same bits at every level and worker count) check it.

/// An instruction-set level; the ABI values of `SINEW_SIMD_*`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u32)]
pub enum SimdLevel {
    /// One lane, no vector instructions.
    Scalar = 1,
    /// 4 lanes of 128 bits: SSE2 (baseline on x86-64). NEON lanes are not
    /// written yet: aarch64 runs scalar.
    W128 = 2,
    /// 8 lanes of 256 bits: AVX2.
    W256 = 3,
    /// 16 lanes of 512 bits: AVX-512F.
    W512 = 4,
}

impl SimdLevel {
    /// Converts an ABI value; 0 ("auto") is the machine's best.
    pub fn from_u32(v: u32) -> Option<Self> {
        match v {
            0 => Some(best()),
            1 => Some(Self::Scalar),
            2 => Some(Self::W128),
            3 => Some(Self::W256),
            4 => Some(Self::W512),
            _ => None,
        }
    }

    /// The level a world requesting `self` runs at: never above the machine's.
    pub fn available(self) -> Self {
        self.min(best())
    }

    /// Lanes per kernel call at this level.
    pub fn lanes(self) -> usize {
        match self {
            Self::Scalar => 1,
            Self::W128 => 4,
            Self::W256 => 8,
            Self::W512 => 16,
        }
    }

    /// The narrowest level with at least `n` lanes (the widest when none
    /// has that many), e.g. for a kernel over `n` bodies side by side.
    pub fn holding(n: usize) -> Self {
        let levels = [Self::Scalar, Self::W128, Self::W256, Self::W512];
        levels.into_iter().find(|l| l.lanes() >= n).unwrap_or(Self::W512)
    }

    /// Every level this machine can run, lowest first.
    pub fn all_available() -> Vec<Self> {
        [Self::Scalar, Self::W128, Self::W256, Self::W512].into_iter().filter(|l| *l <= best()).collect()
    }
}

/// The best level of this machine (detected once).
pub fn best() -> SimdLevel {
    use std::sync::OnceLock;
    static BEST: OnceLock<SimdLevel> = OnceLock::new();
    *BEST.get_or_init(detect)
}

#[cfg(target_arch = "x86_64")]
fn detect() -> SimdLevel {
    if std::arch::is_x86_feature_detected!("avx512f") {
        SimdLevel::W512
    } else if std::arch::is_x86_feature_detected!("avx2") {
        SimdLevel::W256
    } else {
        SimdLevel::W128
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn detect() -> SimdLevel {
    SimdLevel::Scalar
}

/// A kernel generic over its lanes.
pub trait Kernel {
    /// Runs the whole kernel with lanes `V`. Must be `#[inline(always)]` so
    /// it is compiled inside the target-feature function that calls it.
    fn run<V: Lanes>(&mut self);
}

/// Runs `kernel` at `level`, capped by what the machine has.
pub fn dispatch(level: SimdLevel, kernel: &mut impl Kernel) {
    match level.available() {
        SimdLevel::Scalar => kernel.run::<f32>(),
        #[cfg(target_arch = "x86_64")]
        SimdLevel::W128 => kernel.run::<x86::V4>(),
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `available` caps the level at what `detect` found.
        SimdLevel::W256 => unsafe { run_avx2(kernel) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above.
        SimdLevel::W512 => unsafe { run_avx512(kernel) },
        #[cfg(not(target_arch = "x86_64"))]
        _ => kernel.run::<f32>(),
    }
}

/// # Safety
/// The CPU has AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn run_avx2(kernel: &mut impl Kernel) {
    kernel.run::<x86::V8>();
}

/// # Safety
/// The CPU has AVX-512F.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn run_avx512(kernel: &mut impl Kernel) {
    kernel.run::<x86::V16>();
}

/// `W` lanes of `f32` and the operations the kernels use. Each is the IEEE
/// operation of the scalar code, lane by lane; comparisons are ordered (false
/// with a NaN), as Rust's.
///
/// The vector types are only ever made inside [`dispatch`]'s target-feature
/// functions, so their instructions exist wherever they run.
///
/// # Safety
/// `gather`/`scatter`/`load`/`store` take raw pointers: every lane's index
/// must be in bounds of the pointed-to slice.
pub trait Lanes: Copy {
    /// Lanes per vector.
    const W: usize;
    /// A lane mask (the result of a comparison).
    type M: Copy;
    /// `v` in every lane.
    fn splat(v: f32) -> Self;
    /// `W` consecutive values from `p`.
    ///
    /// # Safety
    /// `p .. p + W` readable.
    unsafe fn load(p: *const f32) -> Self;
    /// Writes the lanes to `p .. p + W`.
    ///
    /// # Safety
    /// `p .. p + W` writable.
    unsafe fn store(self, p: *mut f32);
    /// The first `W` values of `v` (which must hold them: checked), read
    /// through a pointer that covers them all.
    #[inline(always)]
    fn from_slice(v: &[f32]) -> Self {
        let v = &v[..Self::W];
        // SAFETY: `v` holds `W` values, and its pointer may read all of them.
        unsafe { Self::load(v.as_ptr()) }
    }
    /// True when [`Lanes::unzip`] and [`Lanes::zip`] exist (8 and 16 lanes).
    const UNZIP: bool = false;
    /// Splits the `2W` values of `lo` then `hi` into those at positions `p`
    /// with `p / d` even and those with it odd, each in order (`d` a power
    /// of two below `W`). Only called when `UNZIP`.
    fn unzip(lo: Self, hi: Self, d: usize) -> (Self, Self) {
        let _ = (hi, d);
        unreachable_lanes(lo)
    }
    /// The inverse of `unzip`. Only called when `UNZIP`.
    fn zip(a: Self, b: Self, d: usize) -> (Self, Self) {
        let _ = (b, d);
        unreachable_lanes(a)
    }
    /// Two runs of consecutive values: lanes `l < r` from `p[a + l]`, lanes
    /// `l >= r` from `p[b + l - r]` (`0 <= r <= W`). Only those elements are
    /// read. The default goes one lane at a time.
    ///
    /// # Safety
    /// `p + a .. p + a + r` and `p + b .. p + b + W - r` readable.
    #[inline(always)]
    unsafe fn load_runs(p: *const f32, a: usize, b: usize, r: usize) -> Self {
        let mut v = [0.0f32; 16];
        for (l, v) in v.iter_mut().enumerate().take(Self::W) {
            // SAFETY: the caller's.
            *v = unsafe { *p.add(if l < r { a + l } else { b + l - r }) };
        }
        // SAFETY: `v` holds 16 values.
        unsafe { Self::load(v.as_ptr()) }
    }
    /// Writes the lanes where [`Lanes::load_runs`] reads them, and nothing else.
    ///
    /// # Safety
    /// As `load_runs`, writable.
    #[inline(always)]
    unsafe fn store_runs(self, p: *mut f32, a: usize, b: usize, r: usize) {
        let mut v = [0.0f32; 16];
        // SAFETY: `v` holds 16 values.
        unsafe { self.store(v.as_mut_ptr()) };
        for (l, v) in v.iter().enumerate().take(Self::W) {
            // SAFETY: the caller's.
            unsafe { *p.add(if l < r { a + l } else { b + l - r }) = *v };
        }
    }
    /// `base[idx[l]]` per lane.
    ///
    /// # Safety
    /// Every `base + idx[l]` readable.
    unsafe fn gather(base: *const f32, idx: &[u32; 16]) -> Self;
    /// `base[idx[l]] = self[l]` for the first `n` lanes, in lane order.
    ///
    /// # Safety
    /// Every `base + idx[l]`, `l < n`, writable.
    unsafe fn scatter(self, base: *mut f32, idx: &[u32; 16], n: usize);
    /// `self + o`.
    fn add(self, o: Self) -> Self;
    /// `self - o`.
    fn sub(self, o: Self) -> Self;
    /// `self * o`.
    fn mul(self, o: Self) -> Self;
    /// `self / o`.
    fn div(self, o: Self) -> Self;
    /// `-self` (the sign bit flipped, as Rust's `-`).
    fn neg(self) -> Self;
    /// Square root.
    fn sqrt(self) -> Self;
    /// `|self|` (the sign bit cleared, as `f32::abs`).
    fn abs(self) -> Self;
    /// `self < o ? self : o`: x86's `minps` (the second operand when either
    /// is NaN, `o` when both are zeros), not `f32::min`, so that every level
    /// picks the same bits.
    fn min(self, o: Self) -> Self;
    /// `self > o ? self : o`: x86's `maxps`, as [`Lanes::min`].
    fn max(self, o: Self) -> Self;
    /// The magnitude of `self` with the sign bit of `sign` (`f32::copysign`).
    fn copysign(self, sign: Self) -> Self;
    /// `self < o`.
    fn lt(self, o: Self) -> Self::M;
    /// `self <= o`.
    fn le(self, o: Self) -> Self::M;
    /// `self > o`.
    fn gt(self, o: Self) -> Self::M;
    /// `self == o`.
    fn eq(self, o: Self) -> Self::M;
    /// Either mask.
    fn or(a: Self::M, b: Self::M) -> Self::M;
    /// `m ? a : b` per lane.
    fn select(m: Self::M, a: Self, b: Self) -> Self;
    /// Is any lane of `m` set?
    fn any(m: Self::M) -> bool;
}

/// `(s, e)` with `s = a + b` rounded and `a + b = s + e` exactly (Knuth's
/// TwoSum, Handbook of Floating-Point Arithmetic 4.3.2): six additions,
/// whatever the magnitudes, no branch, so every level gives the same bits.
#[inline(always)]
pub fn two_sum<V: Lanes>(a: V, b: V) -> (V, V) {
    let s = a.add(b);
    let b_virtual = s.sub(a);
    let a_virtual = s.sub(b_virtual);
    (s, a.sub(a_virtual).add(b.sub(b_virtual)))
}

#[inline(always)]
fn unreachable_lanes<V>(_: V) -> (V, V) {
    unreachable!("unzip/zip called on lanes without permutes")
}

/// Permute indices of `unzip` and `zip` for 16 lanes, per `d` in 1, 2, 4,
/// 8: [first ends, second ends, zip low half, zip high half]. An index
/// above 15 picks from the second source.
const fn permutes() -> [[[i32; 16]; 4]; 4] {
    let mut t = [[[0i32; 16]; 4]; 4];
    let mut k = 0;
    while k < 4 {
        let d = 1usize << k;
        let mut l = 0;
        while l < 16 {
            let i = (l / d) * 2 * d + l % d;
            t[k][0][l] = i as i32;
            t[k][1][l] = (i + d) as i32;
            l += 1;
        }
        let mut p = 0;
        while p < 32 {
            let lane = (p / (2 * d)) * d + p % d;
            let from_b = (p / d) % 2 == 1;
            t[k][2 + p / 16][p % 16] = lane as i32 + if from_b { 16 } else { 0 };
            p += 1;
        }
        k += 1;
    }
    t
}

/// The tables of [`permutes`].
pub(crate) static PERMUTES: [[[i32; 16]; 4]; 4] = permutes();

/// The same for 8 lanes (`d` in 1, 2, 4), as indices into one source plus
/// masks: [first ends, second ends, zip low, zip high], each (index, from
/// the second source).
const fn permutes8() -> [[([i32; 8], [i32; 8]); 4]; 3] {
    let mut t = [[([0i32; 8], [0i32; 8]); 4]; 3];
    let mut k = 0;
    while k < 3 {
        let d = 1usize << k;
        let mut l = 0;
        while l < 8 {
            let i = (l / d) * 2 * d + l % d;
            t[k][0].0[l] = (i % 8) as i32;
            t[k][0].1[l] = if i >= 8 { -1 } else { 0 };
            t[k][1].0[l] = ((i + d) % 8) as i32;
            t[k][1].1[l] = if i + d >= 8 { -1 } else { 0 };
            l += 1;
        }
        let mut p = 0;
        while p < 16 {
            let lane = (p / (2 * d)) * d + p % d;
            let from_b = (p / d) % 2 == 1;
            t[k][2 + p / 8].0[p % 8] = lane as i32;
            t[k][2 + p / 8].1[p % 8] = if from_b { -1 } else { 0 };
            p += 1;
        }
        k += 1;
    }
    t
}

/// The tables of [`permutes8`].
pub(crate) static PERMUTES8: [[([i32; 8], [i32; 8]); 4]; 3] = permutes8();

// SAFETY (its `unsafe fn`s): the contracts stated on `Lanes`, the caller's.
impl Lanes for f32 {
    const W: usize = 1;
    type M = bool;
    #[inline(always)]
    fn splat(v: f32) -> Self {
        v
    }
    #[inline(always)]
    unsafe fn load(p: *const f32) -> Self {
        // SAFETY: the caller's.
        unsafe { *p }
    }
    #[inline(always)]
    unsafe fn store(self, p: *mut f32) {
        // SAFETY: the caller's.
        unsafe { *p = self };
    }
    #[inline(always)]
    unsafe fn gather(base: *const f32, idx: &[u32; 16]) -> Self {
        // SAFETY: the caller's.
        unsafe { *base.add(idx[0] as usize) }
    }
    #[inline(always)]
    unsafe fn scatter(self, base: *mut f32, idx: &[u32; 16], n: usize) {
        if n > 0 {
            // SAFETY: the caller's.
            unsafe { *base.add(idx[0] as usize) = self };
        }
    }
    #[inline(always)]
    fn add(self, o: Self) -> Self {
        self + o
    }
    #[inline(always)]
    fn sub(self, o: Self) -> Self {
        self - o
    }
    #[inline(always)]
    fn mul(self, o: Self) -> Self {
        self * o
    }
    #[inline(always)]
    fn div(self, o: Self) -> Self {
        self / o
    }
    #[inline(always)]
    fn neg(self) -> Self {
        -self
    }
    #[inline(always)]
    fn sqrt(self) -> Self {
        f32::sqrt(self)
    }
    #[inline(always)]
    fn abs(self) -> Self {
        f32::abs(self)
    }
    #[inline(always)]
    fn min(self, o: Self) -> Self {
        if self < o { self } else { o }
    }
    #[inline(always)]
    fn max(self, o: Self) -> Self {
        if self > o { self } else { o }
    }
    #[inline(always)]
    fn copysign(self, sign: Self) -> Self {
        f32::copysign(self, sign)
    }
    #[inline(always)]
    fn lt(self, o: Self) -> bool {
        self < o
    }
    #[inline(always)]
    fn le(self, o: Self) -> bool {
        self <= o
    }
    #[inline(always)]
    fn gt(self, o: Self) -> bool {
        self > o
    }
    #[inline(always)]
    fn eq(self, o: Self) -> bool {
        self == o
    }
    #[inline(always)]
    fn or(a: bool, b: bool) -> bool {
        a | b
    }
    #[inline(always)]
    fn select(m: bool, a: Self, b: Self) -> Self {
        if m { a } else { b }
    }
    #[inline(always)]
    fn any(m: bool) -> bool {
        m
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    //! SSE2 (baseline on x86-64), AVX2 and AVX-512F lanes. The AVX types
    //! are only made inside `run_avx2`/`run_avx512`, whose target features
    //! these inlined methods then run under.
    //!
    //! SAFETY, for every `unsafe` block and `unsafe fn` in this module (one
    //! family of one-intrinsic wrappers, hence no comment on each): an
    //! arithmetic, compare or shuffle intrinsic needs only its target
    //! feature, which the type's existence proves (SSE2 is baseline; `V8`
    //! and `V16` are made only under `run_avx2`/`run_avx512`, which
    //! `dispatch` calls only when `detect` found the feature); a load,
    //! store, gather or scatter also needs its addresses valid, which is the
    //! contract of the `Lanes` method it implements (stated on the trait)
    //! and so its caller's.
    #![allow(unsafe_op_in_unsafe_fn, clippy::undocumented_unsafe_blocks)]

    use super::Lanes;
    use std::arch::x86_64::*;

    /// 4 lanes, SSE2.
    #[derive(Clone, Copy)]
    pub struct V4(__m128);
    /// 8 lanes, AVX2.
    #[derive(Clone, Copy)]
    pub struct V8(__m256);
    /// 16 lanes, AVX-512F.
    #[derive(Clone, Copy)]
    pub struct V16(__m512);

    impl Lanes for V4 {
        const W: usize = 4;
        type M = __m128;
        #[inline(always)]
        fn splat(v: f32) -> Self {
            V4(unsafe { _mm_set1_ps(v) })
        }
        #[inline(always)]
        unsafe fn load(p: *const f32) -> Self {
            V4(_mm_loadu_ps(p))
        }
        #[inline(always)]
        unsafe fn store(self, p: *mut f32) {
            _mm_storeu_ps(p, self.0)
        }
        #[inline(always)]
        unsafe fn gather(base: *const f32, idx: &[u32; 16]) -> Self {
            let g = |l: usize| *base.add(idx[l] as usize);
            V4(_mm_setr_ps(g(0), g(1), g(2), g(3)))
        }
        #[inline(always)]
        unsafe fn scatter(self, base: *mut f32, idx: &[u32; 16], n: usize) {
            let mut v = [0.0f32; 4];
            _mm_storeu_ps(v.as_mut_ptr(), self.0);
            for l in 0..n.min(4) {
                *base.add(idx[l] as usize) = v[l];
            }
        }
        #[inline(always)]
        fn add(self, o: Self) -> Self {
            V4(unsafe { _mm_add_ps(self.0, o.0) })
        }
        #[inline(always)]
        fn sub(self, o: Self) -> Self {
            V4(unsafe { _mm_sub_ps(self.0, o.0) })
        }
        #[inline(always)]
        fn mul(self, o: Self) -> Self {
            V4(unsafe { _mm_mul_ps(self.0, o.0) })
        }
        #[inline(always)]
        fn div(self, o: Self) -> Self {
            V4(unsafe { _mm_div_ps(self.0, o.0) })
        }
        #[inline(always)]
        fn neg(self) -> Self {
            V4(unsafe { _mm_xor_ps(self.0, _mm_set1_ps(-0.0)) })
        }
        #[inline(always)]
        fn sqrt(self) -> Self {
            V4(unsafe { _mm_sqrt_ps(self.0) })
        }
        #[inline(always)]
        fn abs(self) -> Self {
            V4(unsafe { _mm_andnot_ps(_mm_set1_ps(-0.0), self.0) })
        }
        #[inline(always)]
        fn min(self, o: Self) -> Self {
            V4(unsafe { _mm_min_ps(self.0, o.0) })
        }
        #[inline(always)]
        fn max(self, o: Self) -> Self {
            V4(unsafe { _mm_max_ps(self.0, o.0) })
        }
        #[inline(always)]
        fn copysign(self, sign: Self) -> Self {
            V4(unsafe {
                let s = _mm_set1_ps(-0.0);
                _mm_or_ps(_mm_andnot_ps(s, self.0), _mm_and_ps(s, sign.0))
            })
        }
        #[inline(always)]
        fn lt(self, o: Self) -> __m128 {
            unsafe { _mm_cmplt_ps(self.0, o.0) }
        }
        #[inline(always)]
        fn le(self, o: Self) -> __m128 {
            unsafe { _mm_cmple_ps(self.0, o.0) }
        }
        #[inline(always)]
        fn gt(self, o: Self) -> __m128 {
            unsafe { _mm_cmpgt_ps(self.0, o.0) }
        }
        #[inline(always)]
        fn eq(self, o: Self) -> __m128 {
            unsafe { _mm_cmpeq_ps(self.0, o.0) }
        }
        #[inline(always)]
        fn or(a: __m128, b: __m128) -> __m128 {
            unsafe { _mm_or_ps(a, b) }
        }
        #[inline(always)]
        fn select(m: __m128, a: Self, b: Self) -> Self {
            V4(unsafe { _mm_or_ps(_mm_and_ps(m, a.0), _mm_andnot_ps(m, b.0)) })
        }
        #[inline(always)]
        fn any(m: __m128) -> bool {
            unsafe { _mm_movemask_ps(m) != 0 }
        }
    }

    impl Lanes for V8 {
        const W: usize = 8;
        type M = __m256;
        #[inline(always)]
        fn splat(v: f32) -> Self {
            V8(unsafe { _mm256_set1_ps(v) })
        }
        #[inline(always)]
        unsafe fn load(p: *const f32) -> Self {
            V8(_mm256_loadu_ps(p))
        }
        #[inline(always)]
        unsafe fn store(self, p: *mut f32) {
            _mm256_storeu_ps(p, self.0)
        }
        #[inline(always)]
        unsafe fn gather(base: *const f32, idx: &[u32; 16]) -> Self {
            let i = _mm256_loadu_si256(idx.as_ptr() as *const __m256i);
            V8(_mm256_i32gather_ps::<4>(base, i))
        }
        #[inline(always)]
        unsafe fn scatter(self, base: *mut f32, idx: &[u32; 16], n: usize) {
            let mut v = [0.0f32; 8];
            _mm256_storeu_ps(v.as_mut_ptr(), self.0);
            for l in 0..n.min(8) {
                *base.add(idx[l] as usize) = v[l];
            }
        }
        // Masked loads and stores do not touch the lanes masked off, so a
        // run's base may lie outside `p`'s array (wrapping pointer arithmetic).
        #[inline(always)]
        unsafe fn load_runs(p: *const f32, a: usize, b: usize, r: usize) -> Self {
            let first = _mm256_cmpgt_epi32(_mm256_set1_epi32(r as i32), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
            let second = _mm256_xor_si256(first, _mm256_set1_epi32(-1));
            let x = _mm256_maskload_ps(p.wrapping_add(a), first);
            let y = _mm256_maskload_ps(p.wrapping_add(b).wrapping_sub(r), second);
            V8(_mm256_blendv_ps(y, x, _mm256_castsi256_ps(first)))
        }
        #[inline(always)]
        unsafe fn store_runs(self, p: *mut f32, a: usize, b: usize, r: usize) {
            let first = _mm256_cmpgt_epi32(_mm256_set1_epi32(r as i32), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
            let second = _mm256_xor_si256(first, _mm256_set1_epi32(-1));
            _mm256_maskstore_ps(p.wrapping_add(a), first, self.0);
            _mm256_maskstore_ps(p.wrapping_add(b).wrapping_sub(r), second, self.0);
        }
        #[inline(always)]
        fn add(self, o: Self) -> Self {
            V8(unsafe { _mm256_add_ps(self.0, o.0) })
        }
        #[inline(always)]
        fn sub(self, o: Self) -> Self {
            V8(unsafe { _mm256_sub_ps(self.0, o.0) })
        }
        #[inline(always)]
        fn mul(self, o: Self) -> Self {
            V8(unsafe { _mm256_mul_ps(self.0, o.0) })
        }
        #[inline(always)]
        fn div(self, o: Self) -> Self {
            V8(unsafe { _mm256_div_ps(self.0, o.0) })
        }
        #[inline(always)]
        fn neg(self) -> Self {
            V8(unsafe { _mm256_xor_ps(self.0, _mm256_set1_ps(-0.0)) })
        }
        #[inline(always)]
        fn sqrt(self) -> Self {
            V8(unsafe { _mm256_sqrt_ps(self.0) })
        }
        #[inline(always)]
        fn abs(self) -> Self {
            V8(unsafe { _mm256_andnot_ps(_mm256_set1_ps(-0.0), self.0) })
        }
        #[inline(always)]
        fn min(self, o: Self) -> Self {
            V8(unsafe { _mm256_min_ps(self.0, o.0) })
        }
        #[inline(always)]
        fn max(self, o: Self) -> Self {
            V8(unsafe { _mm256_max_ps(self.0, o.0) })
        }
        #[inline(always)]
        fn copysign(self, sign: Self) -> Self {
            V8(unsafe {
                let s = _mm256_set1_ps(-0.0);
                _mm256_or_ps(_mm256_andnot_ps(s, self.0), _mm256_and_ps(s, sign.0))
            })
        }
        #[inline(always)]
        fn lt(self, o: Self) -> __m256 {
            unsafe { _mm256_cmp_ps::<_CMP_LT_OQ>(self.0, o.0) }
        }
        #[inline(always)]
        fn le(self, o: Self) -> __m256 {
            unsafe { _mm256_cmp_ps::<_CMP_LE_OQ>(self.0, o.0) }
        }
        #[inline(always)]
        fn gt(self, o: Self) -> __m256 {
            unsafe { _mm256_cmp_ps::<_CMP_GT_OQ>(self.0, o.0) }
        }
        #[inline(always)]
        fn eq(self, o: Self) -> __m256 {
            unsafe { _mm256_cmp_ps::<_CMP_EQ_OQ>(self.0, o.0) }
        }
        #[inline(always)]
        fn or(a: __m256, b: __m256) -> __m256 {
            unsafe { _mm256_or_ps(a, b) }
        }
        #[inline(always)]
        fn select(m: __m256, a: Self, b: Self) -> Self {
            V8(unsafe { _mm256_blendv_ps(b.0, a.0, m) })
        }
        #[inline(always)]
        fn any(m: __m256) -> bool {
            unsafe { _mm256_movemask_ps(m) != 0 }
        }
        const UNZIP: bool = true;
        #[inline(always)]
        fn unzip(lo: Self, hi: Self, d: usize) -> (Self, Self) {
            let t = &super::PERMUTES8[d.trailing_zeros() as usize % 3];
            let pick = |(idx, from_hi): &([i32; 8], [i32; 8])| unsafe {
                let i = _mm256_loadu_si256(idx.as_ptr() as *const __m256i);
                let m = _mm256_castsi256_ps(_mm256_loadu_si256(from_hi.as_ptr() as *const __m256i));
                _mm256_blendv_ps(_mm256_permutevar8x32_ps(lo.0, i), _mm256_permutevar8x32_ps(hi.0, i), m)
            };
            (V8(pick(&t[0])), V8(pick(&t[1])))
        }
        #[inline(always)]
        fn zip(a: Self, b: Self, d: usize) -> (Self, Self) {
            let t = &super::PERMUTES8[d.trailing_zeros() as usize % 3];
            let pick = |(idx, from_b): &([i32; 8], [i32; 8])| unsafe {
                let i = _mm256_loadu_si256(idx.as_ptr() as *const __m256i);
                let m = _mm256_castsi256_ps(_mm256_loadu_si256(from_b.as_ptr() as *const __m256i));
                _mm256_blendv_ps(_mm256_permutevar8x32_ps(a.0, i), _mm256_permutevar8x32_ps(b.0, i), m)
            };
            (V8(pick(&t[2])), V8(pick(&t[3])))
        }
    }

    impl Lanes for V16 {
        const W: usize = 16;
        type M = __mmask16;
        #[inline(always)]
        fn splat(v: f32) -> Self {
            V16(unsafe { _mm512_set1_ps(v) })
        }
        #[inline(always)]
        unsafe fn load(p: *const f32) -> Self {
            V16(_mm512_loadu_ps(p))
        }
        #[inline(always)]
        unsafe fn store(self, p: *mut f32) {
            _mm512_storeu_ps(p, self.0)
        }
        #[inline(always)]
        unsafe fn gather(base: *const f32, idx: &[u32; 16]) -> Self {
            let i = _mm512_loadu_si512(idx.as_ptr() as *const __m512i);
            V16(_mm512_i32gather_ps::<4>(i, base))
        }
        #[inline(always)]
        unsafe fn scatter(self, base: *mut f32, idx: &[u32; 16], n: usize) {
            // Lanes of one batch never share an index, so the order of the
            // scatter's writes does not matter.
            let i = _mm512_loadu_si512(idx.as_ptr() as *const __m512i);
            let mask: __mmask16 = if n >= 16 { 0xFFFF } else { (1u16 << n) - 1 };
            _mm512_mask_i32scatter_ps::<4>(base, mask, i, self.0);
        }
        // As for `V8`: the lanes masked off are not touched.
        #[inline(always)]
        unsafe fn load_runs(p: *const f32, a: usize, b: usize, r: usize) -> Self {
            let first: __mmask16 = ((1u32 << r) - 1) as u16;
            let x = _mm512_maskz_loadu_ps(first, p.wrapping_add(a));
            V16(_mm512_mask_loadu_ps(x, !first, p.wrapping_add(b).wrapping_sub(r)))
        }
        #[inline(always)]
        unsafe fn store_runs(self, p: *mut f32, a: usize, b: usize, r: usize) {
            let first: __mmask16 = ((1u32 << r) - 1) as u16;
            _mm512_mask_storeu_ps(p.wrapping_add(a), first, self.0);
            _mm512_mask_storeu_ps(p.wrapping_add(b).wrapping_sub(r), !first, self.0);
        }
        #[inline(always)]
        fn add(self, o: Self) -> Self {
            V16(unsafe { _mm512_add_ps(self.0, o.0) })
        }
        #[inline(always)]
        fn sub(self, o: Self) -> Self {
            V16(unsafe { _mm512_sub_ps(self.0, o.0) })
        }
        #[inline(always)]
        fn mul(self, o: Self) -> Self {
            V16(unsafe { _mm512_mul_ps(self.0, o.0) })
        }
        #[inline(always)]
        fn div(self, o: Self) -> Self {
            V16(unsafe { _mm512_div_ps(self.0, o.0) })
        }
        #[inline(always)]
        fn neg(self) -> Self {
            // AVX-512F has no float xor (that is AVX-512DQ): flip the sign bit as integers.
            V16(unsafe {
                _mm512_castsi512_ps(_mm512_xor_si512(_mm512_castps_si512(self.0), _mm512_set1_epi32(i32::MIN)))
            })
        }
        #[inline(always)]
        fn sqrt(self) -> Self {
            V16(unsafe { _mm512_sqrt_ps(self.0) })
        }
        // Bit operations as integers, as `neg`.
        #[inline(always)]
        fn abs(self) -> Self {
            V16(unsafe {
                _mm512_castsi512_ps(_mm512_and_si512(_mm512_castps_si512(self.0), _mm512_set1_epi32(i32::MAX)))
            })
        }
        #[inline(always)]
        fn min(self, o: Self) -> Self {
            V16(unsafe { _mm512_min_ps(self.0, o.0) })
        }
        #[inline(always)]
        fn max(self, o: Self) -> Self {
            V16(unsafe { _mm512_max_ps(self.0, o.0) })
        }
        #[inline(always)]
        fn copysign(self, sign: Self) -> Self {
            V16(unsafe {
                let magnitude = _mm512_and_si512(_mm512_castps_si512(self.0), _mm512_set1_epi32(i32::MAX));
                let sign = _mm512_and_si512(_mm512_castps_si512(sign.0), _mm512_set1_epi32(i32::MIN));
                _mm512_castsi512_ps(_mm512_or_si512(magnitude, sign))
            })
        }
        #[inline(always)]
        fn lt(self, o: Self) -> __mmask16 {
            unsafe { _mm512_cmp_ps_mask::<_CMP_LT_OQ>(self.0, o.0) }
        }
        #[inline(always)]
        fn le(self, o: Self) -> __mmask16 {
            unsafe { _mm512_cmp_ps_mask::<_CMP_LE_OQ>(self.0, o.0) }
        }
        #[inline(always)]
        fn gt(self, o: Self) -> __mmask16 {
            unsafe { _mm512_cmp_ps_mask::<_CMP_GT_OQ>(self.0, o.0) }
        }
        #[inline(always)]
        fn eq(self, o: Self) -> __mmask16 {
            unsafe { _mm512_cmp_ps_mask::<_CMP_EQ_OQ>(self.0, o.0) }
        }
        #[inline(always)]
        fn or(a: __mmask16, b: __mmask16) -> __mmask16 {
            a | b
        }
        #[inline(always)]
        fn select(m: __mmask16, a: Self, b: Self) -> Self {
            V16(unsafe { _mm512_mask_blend_ps(m, b.0, a.0) })
        }
        #[inline(always)]
        fn any(m: __mmask16) -> bool {
            m != 0
        }
        const UNZIP: bool = true;
        #[inline(always)]
        fn unzip(lo: Self, hi: Self, d: usize) -> (Self, Self) {
            let t = &super::PERMUTES[d.trailing_zeros() as usize & 3];
            unsafe {
                let ia = _mm512_loadu_si512(t[0].as_ptr() as *const __m512i);
                let ib = _mm512_loadu_si512(t[1].as_ptr() as *const __m512i);
                (V16(_mm512_permutex2var_ps(lo.0, ia, hi.0)), V16(_mm512_permutex2var_ps(lo.0, ib, hi.0)))
            }
        }
        #[inline(always)]
        fn zip(a: Self, b: Self, d: usize) -> (Self, Self) {
            let t = &super::PERMUTES[d.trailing_zeros() as usize & 3];
            unsafe {
                let il = _mm512_loadu_si512(t[2].as_ptr() as *const __m512i);
                let ih = _mm512_loadu_si512(t[3].as_ptr() as *const __m512i);
                (V16(_mm512_permutex2var_ps(a.0, il, b.0)), V16(_mm512_permutex2var_ps(a.0, ih, b.0)))
            }
        }
    }
}

/// A 3-vector per lane (x, y, z columns), for kernels that do vector
/// algebra. Each operation is glam's `Vec3` one, in the same order, so a
/// kernel at one lane computes what the same formula over `Vec3` would.
#[derive(Clone, Copy)]
pub(crate) struct V3<V> {
    pub x: V,
    pub y: V,
    pub z: V,
}

impl<V: Lanes> V3<V> {
    #[inline(always)]
    pub fn add(self, o: Self) -> Self {
        V3 { x: self.x.add(o.x), y: self.y.add(o.y), z: self.z.add(o.z) }
    }

    #[inline(always)]
    pub fn sub(self, o: Self) -> Self {
        V3 { x: self.x.sub(o.x), y: self.y.sub(o.y), z: self.z.sub(o.z) }
    }

    /// `self * s`, lane by lane.
    #[inline(always)]
    pub fn scale(self, s: V) -> Self {
        V3 { x: self.x.mul(s), y: self.y.mul(s), z: self.z.mul(s) }
    }

    /// `self / s`, lane by lane.
    #[inline(always)]
    pub fn div(self, s: V) -> Self {
        V3 { x: self.x.div(s), y: self.y.div(s), z: self.z.div(s) }
    }

    #[inline(always)]
    pub fn neg(self) -> Self {
        V3 { x: self.x.neg(), y: self.y.neg(), z: self.z.neg() }
    }

    #[inline(always)]
    pub fn dot(self, o: Self) -> V {
        self.x.mul(o.x).add(self.y.mul(o.y)).add(self.z.mul(o.z))
    }

    #[inline(always)]
    pub fn cross(self, o: Self) -> Self {
        V3 {
            x: self.y.mul(o.z).sub(o.y.mul(self.z)),
            y: self.z.mul(o.x).sub(o.z.mul(self.x)),
            z: self.x.mul(o.y).sub(o.x.mul(self.y)),
        }
    }

    /// `m ? a : b` per lane.
    #[inline(always)]
    pub fn select(m: V::M, a: Self, b: Self) -> Self {
        V3 { x: V::select(m, a.x, b.x), y: V::select(m, a.y, b.y), z: V::select(m, a.z, b.z) }
    }
}

/// `tan(pi/8)`: above it [`atan2`] reduces once more.
const TAN_PI_8: f32 = 0.414_213_57;

/// Writes `N` vectors of `W` consecutive values each to `v` from `at`
/// (which must hold them: one range check), as [`load_n`] reads them.
#[inline(always)]
pub(crate) fn store_n<V: Lanes, const N: usize>(v: &mut [f32], at: usize, values: [V; N]) {
    let v = &mut v[at..at + N * V::W];
    for (c, x) in values.into_iter().enumerate() {
        // SAFETY: `v` holds `N W` values; this writes `W` from `c W`.
        unsafe { x.store(v.as_mut_ptr().add(c * V::W)) };
    }
}

/// `N` vectors of `W` consecutive values each, from `at` in `v` (which
/// must hold them: one range check, not one per vector; a range with its
/// end, so the check is one comparison the compiler can often fold).
#[inline(always)]
pub(crate) fn load_n<V: Lanes, const N: usize>(v: &[f32], at: usize) -> [V; N] {
    let v = &v[at..at + N * V::W];
    let mut out = [V::splat(0.0); N];
    for (c, o) in out.iter_mut().enumerate() {
        // SAFETY: `v` holds `N W` values; this reads `W` from `c W`.
        *o = unsafe { V::load(v.as_ptr().add(c * V::W)) };
    }
    out
}

/// `atan2(y, x)` in radians, written once over the lanes, so that every
/// level (the scalar one included) gives the same bits; `f32::atan2` is
/// libm's and has no vector twin.
///
/// Range reduction (Cephes `atanf`, S. L. Moshier): `t = min(|x|,
/// |y|) / max(|x|, |y|)` in `[0, 1]`; above `tan(pi/8)`, `atan t = pi/4 +
/// atan((t - 1) / (t + 1))`, so the odd minimax polynomial of Cephes only
/// sees `|u| <= tan(pi/8)`, where its relative error is below 2e-7. Then
/// the octant: `pi/2 - r` when `|y| > |x|`, `pi - r` when `x`'s sign bit is
/// set, and `y`'s sign. Plain IEEE operations only, no FMA; the absolute
/// error against `f32::atan2` is below 1e-6 (the test below measures it).
///
/// As libm for zeros: `atan2(+-0, x >= +0) = +-0`, `atan2(+-0, x <= -0) =
/// +-pi`. Infinite inputs are not handled (`atan2(inf, inf)` is NaN).
#[inline(always)]
pub(crate) fn atan2<V: Lanes>(y: V, x: V) -> V {
    use std::f32::consts::{FRAC_PI_2, FRAC_PI_4, PI};
    let (ax, ay) = (x.abs(), y.abs());
    let (hi, lo) = (ax.max(ay), ax.min(ay));
    let zero = V::splat(0.0);
    let t = V::select(hi.gt(zero), lo.div(hi), zero);
    let one = V::splat(1.0);
    let big = t.gt(V::splat(TAN_PI_8));
    let u = V::select(big, t.sub(one).div(t.add(one)), t);
    let z = u.mul(u);
    let poly = V::splat(8.053_744_5e-2)
        .mul(z)
        .sub(V::splat(1.387_768_5e-1))
        .mul(z)
        .add(V::splat(1.997_771_1e-1))
        .mul(z)
        .sub(V::splat(3.333_295e-1))
        .mul(z)
        .mul(u)
        .add(u);
    let r = V::select(big, poly.add(V::splat(FRAC_PI_4)), poly);
    let r = V::select(ay.gt(ax), V::splat(FRAC_PI_2).sub(r), r);
    let r = V::select(one.copysign(x).lt(zero), V::splat(PI).sub(r), r);
    r.copysign(y)
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Sum<'a> {
        x: &'a [f32],
        out: Vec<f32>,
    }

    impl Kernel for Sum<'_> {
        #[inline(always)]
        fn run<V: Lanes>(&mut self) {
            self.out = vec![0.0; self.x.len()];
            let mut c = 0;
            while c < self.x.len() {
                let n = (self.x.len() - c).min(V::W);
                let idx: [u32; 16] = std::array::from_fn(|l| (c + l.min(n - 1)) as u32);
                // SAFETY: every index is below the length.
                let v = unsafe { V::gather(self.x.as_ptr(), &idx) };
                let big = v.gt(V::splat(2.0));
                let r = v.mul(V::splat(3.0)).add(V::splat(1.0)).sqrt().div(v.add(V::splat(2.0)));
                let r = V::select(V::or(big, v.lt(V::splat(-9.0))), r.sub(v), r);
                // SAFETY: as above.
                unsafe { r.scatter(self.out.as_mut_ptr(), &idx, n) };
                c += V::W;
            }
        }
    }

    #[test]
    fn every_level_gives_the_same_bits() {
        let x: Vec<f32> = (0..101).map(|i| (i as f32 * 0.37).sin() * 10.0).collect();
        let mut outs = Vec::new();
        for level in SimdLevel::all_available() {
            let mut k = Sum { x: &x, out: Vec::new() };
            dispatch(level, &mut k);
            outs.push(k.out.iter().map(|v| v.to_bits()).collect::<Vec<_>>());
        }
        assert!(outs.len() >= 2 || best() == SimdLevel::Scalar);
        assert!(outs.windows(2).all(|w| w[0] == w[1]));
        assert_ne!(outs[0][3], 0, "the kernel wrote its output");
    }

    /// `atan2` at every level over a grid of all quadrants, the axes and
    /// zeros of both signs, and many orders of magnitude.
    struct Atan2<'a> {
        y: &'a [f32],
        x: &'a [f32],
        out: Vec<f32>,
    }

    impl Kernel for Atan2<'_> {
        #[inline(always)]
        fn run<V: Lanes>(&mut self) {
            self.out = vec![0.0; self.x.len()];
            let mut c = 0;
            while c < self.x.len() {
                let n = (self.x.len() - c).min(V::W);
                let idx: [u32; 16] = std::array::from_fn(|l| (c + l.min(n - 1)) as u32);
                // SAFETY: every index is below the length.
                unsafe {
                    let r = atan2(V::gather(self.y.as_ptr(), &idx), V::gather(self.x.as_ptr(), &idx));
                    r.scatter(self.out.as_mut_ptr(), &idx, n);
                }
                c += V::W;
            }
        }
    }

    fn atan2_grid() -> (Vec<f32>, Vec<f32>) {
        let mut values = vec![0.0f32, -0.0];
        for k in -40..=40 {
            let v = (k as f32 * 0.173).exp() * 0.01;
            values.push(v);
            values.push(-v);
        }
        let (mut y, mut x) = (Vec::new(), Vec::new());
        for &a in &values {
            for &b in &values {
                y.push(a);
                x.push(b);
            }
        }
        // The whole circle, finely.
        for k in 0..20_000 {
            let phi = k as f32 * (std::f32::consts::TAU / 20_000.0) - std::f32::consts::PI;
            y.push(phi.sin() * 3.0);
            x.push(phi.cos() * 3.0);
        }
        (y, x)
    }

    #[test]
    fn atan2_is_within_1e6_of_libm_and_the_same_bits_at_every_level() {
        let (y, x) = atan2_grid();
        let mut outs = Vec::new();
        for level in SimdLevel::all_available() {
            let mut k = Atan2 { y: &y, x: &x, out: Vec::new() };
            dispatch(level, &mut k);
            outs.push(k.out.iter().map(|v| v.to_bits()).collect::<Vec<_>>());
        }
        assert!(outs.windows(2).all(|w| w[0] == w[1]), "levels differ");
        let mut worst = (0.0f64, 0.0, 0.0);
        for ((&yk, &xk), &bits) in y.iter().zip(&x).zip(&outs[0]) {
            let ours = f32::from_bits(bits);
            let libm = yk.atan2(xk);
            let err = f64::from((ours - libm).abs());
            if err > worst.0 {
                worst = (err, yk, xk);
            }
            // Signs and exact values on the axes, as libm.
            assert_eq!(ours.is_sign_negative(), libm.is_sign_negative(), "atan2({yk}, {xk}) = {ours} vs {libm}");
            if yk == 0.0 || xk == 0.0 {
                assert!(err <= 1.2e-7, "atan2({yk}, {xk}) = {ours} vs {libm}");
            }
            let exact = (f64::from(yk)).atan2(f64::from(xk));
            assert!((f64::from(ours) - exact).abs() < 5e-7, "atan2({yk}, {xk}) = {ours} vs {exact}");
        }
        assert!(worst.0 < 1e-6, "worst error {} at atan2({}, {})", worst.0, worst.1, worst.2);
        assert_eq!(atan2(0.0f32, -1.0), std::f32::consts::PI);
        assert_eq!(atan2(0.0f32, 1.0), 0.0);
        assert_eq!(atan2(1.0f32, 0.0), std::f32::consts::FRAC_PI_2);
        assert_eq!(atan2(-1.0f32, 0.0), -std::f32::consts::FRAC_PI_2);
        println!("atan2: worst error against f32::atan2 {:.2e} rad at ({}, {})", worst.0, worst.1, worst.2);
    }

    #[test]
    fn levels_are_capped_by_the_machine() {
        assert_eq!(SimdLevel::W512.available(), best());
        assert_eq!(SimdLevel::from_u32(0), Some(best()));
        assert_eq!(SimdLevel::from_u32(5), None);
    }
}

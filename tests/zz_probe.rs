use scenedec::{Arena, MeasureScratch, Options, Warnings};
const PAINT: usize = 1024 * 1024;
#[inline(never)]
fn paint() -> usize {
    let mut a = [0xa5u8; PAINT];
    std::hint::black_box(&mut a);
    a.as_ptr() as usize
}
#[inline(never)]
pub fn decode(
    bytes: &[u8],
    ext: Option<&str>,
    options: &Options<'_>,
    memory: &mut [u64],
    warnings: &mut Warnings,
) -> bool {
    static SCRATCH: std::sync::Mutex<MeasureScratch> = std::sync::Mutex::new(MeasureScratch::new());
    let mut scratch = SCRATCH.lock().unwrap();
    let mut arena = Arena::from_words(memory);
    let Ok(model) = scenedec::unwrap_into(bytes, options, &mut arena) else {
        return false;
    };
    let Ok(_plan) = scenedec::measure_with(model, ext, options, &mut scratch) else {
        return false;
    };
    scenedec::decode_into(model, ext, options, &mut arena, warnings).is_ok()
}
#[test]
fn probe() {
    let path = std::env::var("PROBE_FILE").unwrap();
    let ext = path.rsplit('.').next().map(|s| s.to_string());
    let bytes = std::fs::read(&path).unwrap();
    let mut memory = vec![0u64; 16 << 20];
    let mut warnings = Box::new(Warnings::new());
    let options = Options::default();
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(PAINT + 256 * 1024)
            .spawn_scoped(s, || {
                let marker = 0u8;
                let top = std::hint::black_box(&marker) as *const u8 as usize;
                let lowest = paint();
                decode(&bytes, ext.as_deref(), &options, &mut memory, &mut warnings);
                for addr in lowest..top {
                    let b = unsafe { std::ptr::read_volatile(addr as *const u8) };
                    if b != 0xa5 {
                        println!("PEAK {} addr {:#x}", top - addr, addr);
                        break;
                    }
                }
            })
            .unwrap()
            .join()
            .unwrap()
    });
}

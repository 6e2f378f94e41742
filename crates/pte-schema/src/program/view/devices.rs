//! Device placement read through the zero-copy views: a tensor's device and
//! each planned buffer's, so a summary needs no decoded model for them.

use crate::fenced::et;
use crate::program::model::NonConstBufferDevice;
use crate::program::view::items::TensorView;
use crate::program::view::PlanView;
use crate::DeviceType;

impl<'a> TensorView<'a> {
    /// `extra_tensor_info.device_type`, when the extra info is present (a
    /// tensor without it is on the CPU).
    ///
    /// ```
    /// # let b = std::fs::read(pte_testkit::corpus("add/model.pte")).unwrap();
    /// # let v = pte_schema::ProgramView::new(&b, &Default::default()).unwrap();
    /// let Some(pte_schema::ValueRef::Tensor(t)) = v.plan(0).unwrap().value_ref(0) else { panic!() };
    /// assert_eq!(t.device_type().unwrap_or_default(), pte_schema::DeviceType::CPU);
    /// ```
    #[inline]
    pub fn device_type(&self) -> Option<DeviceType> {
        self.extra().map(|e| DeviceType(e.i8(et::ExtraTensorInfo::VT_DEVICE_TYPE, et::DeviceType::CPU.0)))
    }

    /// `extra_tensor_info.device_index`, when the extra info is present.
    ///
    /// ```
    /// # let b = std::fs::read(pte_testkit::corpus("add/model.pte")).unwrap();
    /// # let v = pte_schema::ProgramView::new(&b, &Default::default()).unwrap();
    /// let Some(pte_schema::ValueRef::Tensor(t)) = v.plan(0).unwrap().value_ref(0) else { panic!() };
    /// assert_eq!(t.device_index().unwrap_or_default(), 0);
    /// ```
    #[inline]
    pub fn device_index(&self) -> Option<i8> {
        self.extra().map(|e| e.i8(et::ExtraTensorInfo::VT_DEVICE_INDEX, 0))
    }
}

impl<'a> PlanView<'a> {
    /// `non_const_buffer_device`, read in place; `None` when the vector is
    /// absent (every planned buffer is then on the CPU).
    ///
    /// ```
    /// # let b = std::fs::read(pte_testkit::corpus("add/model.pte")).unwrap();
    /// # let v = pte_schema::ProgramView::new(&b, &Default::default()).unwrap();
    /// let plan = v.plan(0).unwrap();
    /// let from_view: Vec<_> = plan.buffer_devices().into_iter().flatten().collect();
    /// assert_eq!(from_view, plan.to_model().unwrap().non_const_buffer_device.unwrap_or_default());
    /// ```
    #[inline]
    pub fn buffer_devices(&self) -> Option<impl ExactSizeIterator<Item = NonConstBufferDevice> + 'a + use<'a>> {
        self.plan.non_const_buffer_device().map(|v| {
            v.iter().map(|d| NonConstBufferDevice {
                buffer_idx: d.buffer_idx(),
                device_type: DeviceType(d.device_type().0),
                device_index: d.device_index(),
            })
        })
    }
}

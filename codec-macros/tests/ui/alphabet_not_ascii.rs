// 256 symbols, half of them beyond ASCII: one error saying what symbols may be,
// not one "appears twice" per repeated byte of the multi-byte characters.
placemat_macros::codec! {
    pub Wide {
        name: "wide",
        unit: alphabet(" !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~¡¢£¤¥¦§¨©ª«¬­®¯°±²³´µ¶·¸¹º»¼½¾¿ÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏÐÑÒÓÔÕÖ×ØÙÚÛÜÝÞßàáâãäåæçèéêëìíîïðñòóôõö÷øùúûüýþÿĀāĂăĄąĆćĈĉĊċČčĎďĐđĒēĔĕĖėĘęĚěĜĝĞğĠġĢģĤĥĦħĨĩĪīĬĭĮįİıĲĳĴĵĶķĸĹĺĻļĽľĿŀŁ"),
        value: u32,
        range: 0 ..= 0xFF,
        forms: { "xxxxxxxx" },
    }
}

fn main() {}

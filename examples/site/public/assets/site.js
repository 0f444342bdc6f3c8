document.querySelectorAll('button.copy').forEach(function(b){b.onclick=function(){navigator.clipboard.writeText(b.nextElementSibling.innerText)}});
